import { describe, expect, it } from 'vitest';
import { DatabaseCreateSchema, DatabaseTestConnectionSchema, DatabaseUpdateSchema } from './database';
import { databaseJsonError, isJsonText, JSON_NOT_DECODED } from './json-text';

describe('JSON-text fields', () => {
  it('passes empty text and JSON, refuses the rest (validate_json)', () => {
    expect([isJsonText(''), isJsonText(null), isJsonText('{"a":1}'), isJsonText('{bad')]).toEqual([true, true, true, false]);
  });

  // Superset, databases/schemas.py: extra_validator / encrypted_extra_validator raise
  // "Field cannot be decoded by JSON. %(msg)s", and "The metadata_params in Extra field is not configured
  // correctly. The key %(key)s is invalid." for a key not on the call signature of SQLAlchemy's MetaData.
  it("checks a database's extra and masked_encrypted_extra as Superset's validators do", () => {
    expect(databaseJsonError('')).toBeNull();
    expect(databaseJsonError('{bad')).toMatch(new RegExp(`^${JSON_NOT_DECODED} \\S`));
    expect(databaseJsonError('{"metadata_params": {"schema": "x", "naming_convention": {}}}', { metadataParams: true })).toBeNull();
    expect(databaseJsonError('{"metadata_params": {"nope": 1}}', { metadataParams: true })).toBe('The metadata_params in Extra field is not configured correctly. The key nope is invalid.');
    // The key check is extra's alone.
    expect(databaseJsonError('{"metadata_params": {"nope": 1}}')).toBeNull();
  });

  it('answers the field map for each database body that carries them', () => {
    const base = { database_name: 'd', sqlalchemy_uri: 'duckdb:///:memory:' };
    for (const [schema, body] of [
      [DatabaseCreateSchema, base],
      [DatabaseUpdateSchema, {}],
      [DatabaseTestConnectionSchema, { sqlalchemy_uri: base.sqlalchemy_uri }],
    ] as const) {
      const bad = schema.safeParse({ ...body, extra: '{bad', masked_encrypted_extra: 'nope' });
      expect(bad.success).toBe(false);
      const fields = Object.fromEntries(bad.error!.issues.map((i) => [i.path.join('.'), i.message]));
      expect(Object.keys(fields).sort()).toEqual(['extra', 'masked_encrypted_extra']);
      expect(fields.masked_encrypted_extra).toMatch(/^Field cannot be decoded by JSON\. /);
      expect(schema.safeParse({ ...body, extra: '{}', masked_encrypted_extra: null }).success).toBe(true);
    }
  });
});
