import ipaddr from 'ipaddr.js';

// Superset's advanced data types: a column typed as an internet address or a port can be filtered by what
// people type (a CIDR range, a service name), converted to the numbers stored in the column.

/** An integer, or a range of them (a network); IPv6 values outgrow JavaScript numbers, hence bigint. */
export type AdvancedValue = bigint | { start: bigint; end: bigint } | bigint[];

export interface AdvancedDataTypeResponse {
  error_message: string;
  values: AdvancedValue[];
  display_value: string;
  valid_filter_operators: string[];
}

/** The operators a converted value may be used with (Superset's FilterStringOperators). */
const OPERATORS = ['==', '>=', '>', 'IN', '<', '<='];

/** Well-known service names and their ports, as Superset's port type knows them. */
const PORTS: Record<string, number[]> = {
  http: [80],
  ssh: [22],
  https: [443],
  ftp: [20, 21],
  ftps: [989, 990],
  telnet: [23],
  telnets: [992],
  smtp: [25],
  submissions: [465],
  kerberos: [88],
  'kerberos-adm': [749],
  pop3: [110],
  pop3s: [995],
  nntp: [119],
  nntps: [563],
  ntp: [123],
  snmp: [161],
  ldap: [389],
  ldaps: [636],
  imap2: [143],
  imaps: [993],
};

const display = (values: AdvancedValue[]) => values.map((v) => (Array.isArray(v) ? v.join(', ') : typeof v === 'bigint' ? String(v) : `${v.start} - ${v.end}`)).join(', ');

const bytesToBigInt = (bytes: number[]) => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);

/** An address or network (10.0.0.0/8, 2001:db8::/32, or an address as one integer) as its first and last address. */
function network(text: string): { start: bigint; end: bigint } {
  if (/^\d+$/.test(text)) {
    const n = BigInt(text);
    if (n >= 2n ** 128n) throw new Error('out of range');
    return { start: n, end: n };
  }
  const [address, prefix] = ipaddr.isValidCIDR(text) ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), null];
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  const value = bytesToBigInt(address.toByteArray());
  const hostBits = BigInt(bits - (prefix ?? bits));
  const start = (value >> hostBits) << hostBits;
  return { start, end: start + (1n << hostBits) - 1n };
}

/** `internet_address`: each value an address or a CIDR network; a network reads as its range. */
function internetAddress(values: string[]): AdvancedDataTypeResponse {
  const out: AdvancedDataTypeResponse = { error_message: '', values: [], display_value: '', valid_filter_operators: OPERATORS };
  for (const raw of values) {
    const text = String(raw).trim();
    if (!text) continue;
    let range;
    try {
      range = network(text);
    } catch {
      return { ...out, error_message: `'${text}' does not appear to be an IPv4 or IPv6 network` };
    }
    out.values.push(range.start === range.end ? range.start : range);
  }
  return { ...out, display_value: display(out.values) };
}

/** `port`: each value a port number (1–65535) or a service name (http, ssh, ...), as its port numbers. */
function port(values: string[]): AdvancedDataTypeResponse {
  const out: AdvancedDataTypeResponse = { error_message: '', values: [], display_value: '', valid_filter_operators: OPERATORS };
  for (const raw of values) {
    const text = String(raw).trim();
    if (!text) continue;
    const numeric = /^\d+$/.test(text) ? Number(text) : null;
    const ports = numeric !== null ? (numeric >= 1 && numeric <= 65535 ? [numeric] : null) : PORTS[text.toLowerCase()];
    if (!ports) return { ...out, error_message: `'${text}' does not appear to be a port name or number` };
    out.values.push(ports.map(BigInt));
  }
  return { ...out, display_value: display(out.values) };
}

/** The advanced data types Meridian converts, by the name Superset gives them. */
export const ADVANCED_DATA_TYPES: Record<string, (values: string[]) => AdvancedDataTypeResponse> = { internet_address: internetAddress, port };
