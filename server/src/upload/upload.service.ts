import { uploadExtensionAllowed } from '@meridian/contracts/rules/upload';
import type { UploadOptions } from '@meridian/query-worker/types';
import { taskError, type DatabaseService } from '../database/database.service';
import type { DatasetService } from '../dataset/dataset.service';
import { Invalid, Unprocessable } from '../errors/domain-errors';
import type { QueryRuntime } from '../results/query-runtime';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';


/** A file the REST door has streamed to disk (and removes once answered), with its original name. */
export interface UploadedFile {
  path: string;
  filename: string;
}

/**
 * Uploading CSV, Excel and columnar files into a table (Superset's UploadCommand): the database must allow
 * uploads into the schema, the worker pool streams the file into the table, and the table gets a dataset
 * (created, or its columns refreshed when it existed).
 */
export class UploadService {
  constructor(private readonly deps: { security: SecurityService; databases: DatabaseService; datasets: DatasetService; runtime: QueryRuntime }) {}

  private checkExtension(type: UploadOptions['type'], file: UploadedFile | null): UploadedFile {
    if (!file) throw new Invalid({ file: ['Missing data for required field.'] });
    if (!uploadExtensionAllowed(type, file.filename)) throw new Invalid({ file: ['File extension is not allowed.'] });
    return file;
  }

  async upload(actor: Actor | null, databaseId: number, upload: UploadedFile | null, options: UploadOptions): Promise<{ rows: number; datasetId: number }> {
    this.deps.security.require(actor, 'can_upload', 'Database');
    const file = this.checkExtension(options.type, upload);
    const db = await this.deps.databases.getAccessible(actor, databaseId);
    const schemas = await this.deps.databases.uploadSchemas(actor, databaseId);
    const schema = options.schema ?? null;
    if (!db.allow_file_upload || (schema !== null && !schemas.includes(schema))) throw new Unprocessable('Database or schema does not allow file uploads.');
    const result = await this.deps.runtime.pool.upload({ ...this.deps.databases.target(db, null, schema), file: file.path, options: { ...options, schema }, timeoutMs: null });
    this.deps.databases.tablesChanged(db.id);
    if (!result.ok) throw taskError(result, 422);
    const { table_id } = await this.deps.datasets.getOrCreate(actor, { database_id: db.id, schema, table_name: options.tableName });
    // An append or replace may change the table's columns.
    if (options.alreadyExists !== 'fail') await this.deps.datasets.refresh(actor, table_id);
    return { rows: result.rows, datasetId: table_id };
  }

  async metadata(actor: Actor | null, upload: UploadedFile | null, options: Pick<UploadOptions, 'type' | 'delimiter' | 'headerRow'>) {
    this.deps.security.require(actor, 'can_upload', 'Database');
    const file = this.checkExtension(options.type, upload);
    const result = await this.deps.runtime.pool.uploadMetadata({ file: file.path, options });
    if (!result.ok) throw taskError(result, 422);
    return { items: result.items };
  }
}
