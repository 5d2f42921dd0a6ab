import { describe, expect, it } from 'vitest';
import { buildSqlalchemyUri, connectEngineOf, missingParameters, missingParametersMessage, portProblem } from './database-parameters';

describe('database connection parameters (Superset dynamic form)', () => {
  it('builds a PostgreSQL URI with the user and password encoded and encryption as sslmode=require', () => {
    expect(buildSqlalchemyUri('postgresql', { host: 'db.example.com', port: 5432, database: 'sales', username: 'ana', password: 'p@ss:w/rd' })).toBe(
      'postgresql://ana:p%40ss%3Aw%2Frd@db.example.com:5432/sales',
    );
    expect(buildSqlalchemyUri('postgresql', { host: 'db', port: '5433', database: 'x', username: 'u', encryption: true, query: { application_name: 'meridian' } })).toBe(
      'postgresql://u@db:5433/x?application_name=meridian&sslmode=require',
    );
  });

  it('builds a MySQL URI without a password when none is given', () => {
    expect(buildSqlalchemyUri('mysql', { host: '127.0.0.1', port: 3306, database: 'test', username: 'root', password: '' })).toBe('mysql://root@127.0.0.1:3306/test');
  });

  it('puts a file path after three slashes, so an absolute path gives four', () => {
    expect(buildSqlalchemyUri('duckdb', { database: '/data/examples.duckdb' })).toBe('duckdb:////data/examples.duckdb');
    expect(buildSqlalchemyUri('sqlite', { database: 'relative.db' })).toBe('sqlite:///relative.db');
  });

  it('"One or more parameters are missing": the required ones left empty, in the form order', () => {
    const missing = missingParameters('postgresql', { host: ' ', port: 5432, database: '', username: 'u' });
    expect(missing).toEqual(['host', 'database']);
    expect(missingParametersMessage(missing)).toBe('One or more parameters are missing: host, database');
    expect(missingParameters('duckdb', { database: '/tmp/x.duckdb' })).toEqual([]);
  });

  it('"Port must be a valid integer." and "The port must be an integer between 0 and 65535 (inclusive)."', () => {
    expect(portProblem('54x')).toBe('Port must be a valid integer.');
    expect(portProblem(70000)).toBe('The port must be an integer between 0 and 65535 (inclusive).');
    expect(portProblem('5432')).toBeNull();
  });

  it('knows MariaDB and postgres schemes as the MySQL and PostgreSQL engines', () => {
    expect(connectEngineOf('mariadb')).toBe('mysql');
    expect(connectEngineOf('postgres+psycopg2://x')).toBe('postgresql');
    expect(connectEngineOf('oracle')).toBeNull();
  });
});
