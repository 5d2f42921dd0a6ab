import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuseNulText } from '../common/nul-text';
import { Invalid } from '../errors/domain-errors';
import { PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import type { UploadedFile } from './upload.service';

const tags = ['Database'];
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** Superset's DelimitedListField: `a,b,c`. */
const list = z.string().transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));
const int = (min: number) => z.coerce.number().int().min(min);
const FileType = z.enum(['csv', 'excel', 'columnar']);

/** Superset's UploadPostSchema: the form fields of `POST /api/v1/database/{pk}/upload/`. */
const UploadForm = z.object({
  type: FileType,
  table_name: z.string().trim().min(1).max(10000),
  schema: z.string().optional(),
  already_exists: z.enum(['fail', 'replace', 'append']).default('fail'),
  delimiter: z.string().min(1).default(','),
  header_row: z.union([z.literal('').transform(() => null), int(0)]).default(0),
  skip_rows: int(0).default(0),
  rows_to_read: z.union([z.literal('').transform(() => null), int(1)]).nullable().default(null),
  null_values: list.optional(),
  column_dates: list.optional(),
  columns_read: list.optional(),
  column_data_types: z.string().optional(),
  decimal_character: z.string().max(1).optional(),
  day_first: bool.optional(),
  sheet_name: z.string().optional(),
  skip_initial_space: bool.optional(),
  skip_blank_lines: bool.optional(),
  index_column: z.string().optional(),
  dataframe_index: bool.optional(),
  index_label: z.string().optional(),
});
const MetadataForm = z.object({ type: FileType, delimiter: z.string().min(1).default(','), header_row: z.union([z.literal('').transform(() => null), int(0)]).default(0) });

/**
 * Reads a multipart upload: the file part streams to a temporary file (never into memory; at most
 * UPLOAD_MAX_BYTES), the other parts are fields. The caller removes the file.
 */
async function readUploadForm(req: FastifyRequest, maxBytes: number): Promise<{ file: UploadedFile | null; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new Invalid({ file: ['Missing data for required field.'] });
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 50 } })) {
      if (part.type === 'file') {
        const path = join(tmpdir(), `meridian-upload-${randomUUID()}`);
        file = { path, filename: part.filename };
        await pipeline(part.file, createWriteStream(path));
        if (part.file.truncated) throw new Invalid({ file: [`File is larger than ${maxBytes} bytes.`] });
      } else fields[part.fieldname] = String(part.value ?? '');
    }
    // The JSON and query doors refuse NUL text (rest.ts); a form's fields are read here, so here.
    refuseNulText(fields);
  } catch (error) {
    if (file) await rm(file.path, { force: true });
    if (error instanceof Invalid) throw error;
    throw new Invalid({ file: [error instanceof Error ? error.message : String(error)] });
  }
  return { file, fields };
}

function parseForm<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.output<T> {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(fields).filter(([k, v]) => v !== '' || k === 'header_row' || k === 'rows_to_read')));
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? '_schema')] ??= []).push(issue.code === 'invalid_type' && issue.input === undefined ? 'Missing data for required field.' : issue.message);
  throw new Invalid(errors);
}

function columnTypes(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.values(parsed).every((v) => typeof v === 'string')) return parsed as Record<string, string>;
  } catch {
    // answered below
  }
  throw new Invalid({ column_data_types: ['Not a valid JSON object of column names and types.'] });
}

/** `POST /api/v1/database/{pk}/upload/` and `POST /api/v1/database/upload_metadata/`, as Superset's. */
export function registerUploadRest(app: FastifyInstance, services: Services): void {
  const maxBytes = services.config.uploadMaxBytes;
  route(app, { method: 'POST', url: '/api/v1/database/:pk/upload/', permission: ['can_upload', 'Database'], summary: 'Upload a CSV, Excel or columnar file into a new or existing table (multipart)', tags, params: PkParams, status: 201 }, async ({ actor, params, req }) => {
    const { file, fields } = await readUploadForm(req, maxBytes);
    try {
      const f = parseForm(UploadForm, fields);
      await services.uploads.upload(actor, params.pk, file, {
        type: f.type,
        tableName: f.table_name,
        schema: f.schema || null,
        alreadyExists: f.already_exists,
        delimiter: f.delimiter,
        headerRow: fields.header_row === '' ? null : f.header_row,
        skipRows: f.skip_rows,
        rowsToRead: f.rows_to_read,
        nullValues: f.null_values,
        columnDates: f.column_dates,
        columnsRead: f.columns_read,
        columnDataTypes: columnTypes(f.column_data_types),
        decimalCharacter: f.decimal_character,
        dayFirst: f.day_first,
        sheetName: f.sheet_name || null,
      });
      return { message: 'OK' };
    } finally {
      if (file) await rm(file.path, { force: true });
    }
  });
  route(app, { method: 'POST', url: '/api/v1/database/upload_metadata/', permission: ['can_upload', 'Database'], summary: "A file's column names (per sheet for Excel), before uploading it", tags }, async ({ actor, req }) => {
    const { file, fields } = await readUploadForm(req, maxBytes);
    try {
      const f = parseForm(MetadataForm, fields);
      return { result: await services.uploads.metadata(actor, file, { type: f.type, delimiter: f.delimiter, headerRow: fields.header_row === '' ? null : f.header_row }) };
    } finally {
      if (file) await rm(file.path, { force: true });
    }
  });
}
