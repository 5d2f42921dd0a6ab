declare module 'pg-cursor' {
  import type { FieldDef, Submittable, Connection } from 'pg';
  interface CursorResult {
    fields: FieldDef[];
    rowCount: number | null;
    command: string;
  }
  interface CursorConfig {
    rowMode?: 'array';
    types?: { getTypeParser: (oid: number, format?: string) => (value: string) => unknown };
  }
  export default class Cursor implements Submittable {
    constructor(text: string, values?: unknown[], config?: CursorConfig);
    submit(connection: Connection): void;
    read(rows: number): Promise<unknown[][]>;
    read(rows: number, cb: (err: Error | undefined, rows: unknown[][], result: CursorResult) => void): void;
    close(): Promise<void>;
    _result: CursorResult;
  }
}
