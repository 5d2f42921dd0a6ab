import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip archive (deflate) of small in-memory files, as Superset's export endpoints send.
 *
 * @example zipFiles({ 'metadata.yaml': 'version: 1.0.0\n' }) // Buffer starting with 'PK'
 */
export function zipFiles(files: Record<string, string | Buffer>, now = new Date()): Buffer {
  const time = ((now.getHours() << 11) | (now.getMinutes() << 5) | Math.floor(now.getSeconds() / 2)) & 0xffff;
  const date = (((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate()) & 0xffff;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, nameBytes, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  const text = String(value);
  // Plain scalars only when YAML would read them back as the same string.
  if (/^[A-Za-z_][A-Za-z0-9_ ./-]*$/.test(text) && !/^(true|false|null|yes|no|on|off|~)$/i.test(text) && !/\s$/.test(text)) return text;
  return JSON.stringify(text);
}

/**
 * Block-style YAML of plain data (objects, arrays, scalars); strings that need it are written as
 * JSON strings, which YAML reads the same.
 */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (!value.length) return `${indent}[]\n`;
    return value
      .map((item) => {
        if (item && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length) {
          const body = toYaml(item, `${indent}  `);
          return `${indent}- ${body.slice(indent.length + 2)}`;
        }
        return `${indent}- ${scalar(item)}\n`;
      })
      .join('');
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return `${indent}{}\n`;
    return entries
      .map(([key, v]) => {
        if (v && typeof v === 'object' && (Array.isArray(v) ? v.length : Object.keys(v).length)) return `${indent}${scalar(key)}:\n${toYaml(v, `${indent}  `)}`;
        if (v && typeof v === 'object') return `${indent}${scalar(key)}: ${Array.isArray(v) ? '[]' : '{}'}\n`;
        return `${indent}${scalar(key)}: ${scalar(v)}\n`;
      })
      .join('');
  }
  return `${indent}${scalar(value)}\n`;
}
