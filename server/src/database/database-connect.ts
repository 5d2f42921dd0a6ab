import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import {
  CONNECT_ENGINES, ENGINE_FORMS, missingParameters, missingParametersMessage, PARAMETER_DESCRIPTIONS, portProblem,
  type ConnectEngine, type DatabaseParameters, type ParameterName,
} from '@meridian/contracts/rules/database-parameters';
import { parseUri } from '@meridian/query-worker';
import type { SupersetError } from '../errors/domain-errors';
import { PASSWORD_MASK } from './sqlalchemy-uri';

// Superset's issue codes of the connection checks (superset/errors.py ISSUE_CODES).
const ISSUES = {
  missing: { code: 1018, message: 'Issue 1018 - One or more parameters needed to configure a database are missing.' },
  hostname: { code: 1007, message: "Issue 1007 - The hostname provided can't be resolved." },
  portClosed: { code: 1008, message: 'Issue 1008 - The port is closed.' },
  portInvalid: { code: 1034, message: 'Issue 1034 - The port number is invalid.' },
};

const JSON_TYPES: Record<ParameterName, Record<string, unknown>> = {
  host: { type: 'string' },
  port: { type: 'integer', minimum: 0, maximum: 65535 },
  database: { type: 'string' },
  username: { type: 'string', nullable: true },
  password: { type: 'string', nullable: true },
  query: { type: 'object', additionalProperties: {} },
  encryption: { type: 'boolean' },
};

/** An engine's `parameters` as the JSON schema Superset's `/database/available/` gives (one property per form field). */
export function parametersJsonSchema(engine: ConnectEngine): Record<string, unknown> {
  const form = ENGINE_FORMS[engine];
  const fileEngine = engine === 'duckdb' || engine === 'sqlite';
  return {
    type: 'object',
    properties: Object.fromEntries(
      form.fields.map((name) => [
        name,
        {
          ...JSON_TYPES[name],
          description: name === 'database' && fileEngine ? 'Path to the database file' : PARAMETER_DESCRIPTIONS[name],
          ...(name === 'port' && form.defaultPort ? { default: form.defaultPort } : {}),
        },
      ]),
    ),
    required: form.required,
  };
}

/** Superset's `GET /api/v1/database/available/` answer: each engine Meridian connects to, with its parameters schema. */
export function availableEngines() {
  return CONNECT_ENGINES.map((engine) => {
    const form = ENGINE_FORMS[engine];
    return {
      name: form.name,
      engine,
      available_drivers: [form.driver],
      default_driver: form.driver,
      preferred: true,
      sqlalchemy_uri_placeholder: form.sqlalchemyUriPlaceholder,
      parameters: parametersJsonSchema(engine),
      engine_information: { supports_file_upload: true, disable_ssh_tunneling: true, supports_dynamic_catalog: false, supports_oauth2: false },
      supports_file_upload: true,
    };
  });
}

const error = (message: string, error_type: string, level: SupersetError['level'], extra: Record<string, unknown>, issue: { code: number; message: string }): SupersetError => ({
  message,
  error_type,
  level,
  extra: { ...extra, issue_codes: [issue] },
});

/** Whether something listens on host:port (Superset's `is_port_open`), giving up after `timeoutMs`. */
function isPortOpen(host: string, port: number, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Superset's `validate_parameters` of an engine: the required parameters are there, the port is a port, the host
 * resolves and the port is open. Returns the errors (empty when the parameters can be tried).
 */
export async function parameterErrors(engine: ConnectEngine, params: DatabaseParameters): Promise<SupersetError[]> {
  const missing = missingParameters(engine, params);
  if (missing.length) return [error(missingParametersMessage(missing), 'CONNECTION_MISSING_PARAMETERS_ERROR', 'warning', { missing }, ISSUES.missing)];
  if (engine === 'duckdb' || engine === 'sqlite') return [];
  const portIssue = portProblem(params.port);
  if (portIssue) return [error(portIssue, 'CONNECTION_INVALID_PORT_ERROR', 'error', { invalid: ['port'] }, ISSUES.portInvalid)];
  const host = String(params.host).trim();
  try {
    await lookup(host);
  } catch {
    return [error("The hostname provided can't be resolved.", 'CONNECTION_INVALID_HOSTNAME_ERROR', 'error', { invalid: ['host'] }, ISSUES.hostname)];
  }
  if (!(await isPortOpen(host, Number(params.port)))) return [error('The port is closed.', 'CONNECTION_PORT_CLOSED_ERROR', 'error', { invalid: ['port'] }, ISSUES.portClosed)];
  return [];
}

/** A stored URI as the form's parameters (Superset's `parameters` of a database), its password masked. */
export function parametersFromUri(uri: string): DatabaseParameters | null {
  let parsed;
  try {
    parsed = parseUri(uri);
  } catch {
    return null;
  }
  if (parsed.backend === 'duckdb' || parsed.backend === 'sqlite') return { database: parsed.database, query: parsed.query };
  // `encryption` is PostgreSQL's sslmode=require; any other sslmode stays a query parameter.
  const { sslmode, ...rest } = parsed.query;
  const query = sslmode !== undefined && sslmode !== 'require' ? { ...rest, sslmode } : rest;
  return {
    host: parsed.host,
    port: parsed.port,
    database: parsed.database,
    username: parsed.username,
    ...(parsed.password !== null ? { password: PASSWORD_MASK } : {}),
    query,
    ...(parsed.backend === 'postgresql' ? { encryption: sslmode === 'require' } : {}),
  };
}
