import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ResultMeta } from '../types.ts';
import type { ResultsBackend } from './results-backend.ts';
import { FRESH_BUFFERS, type PageBuffers } from './page-buffers.ts';

export interface DiskResultsStoreOptions {
  dir: string;
  maxBytes: number;
  ttlSeconds: number;
}

/** How often a store looks over the whole directory at most, when little was written: expired results go then. */
const SCAN_EVERY_MS = 60_000;

/**
 * Results on disk, one directory per key (`<hash>/meta.json`, `<hash>/page-<n>`). Bounded: after a
 * finished result, once this store wrote a tenth of `maxBytes` since it last looked (or a minute
 * passed), it drops expired results, then the least recently read ones until the total is under
 * `maxBytes`. Looking reads the whole directory, so it is not done after every result: with
 * thousands of results kept, that made each query slower than the last. Between looks the store
 * may pass `maxBytes` by a tenth per thread writing to it. Safe across worker threads and
 * processes (atomic renames).
 */
export class DiskResultsStore implements ResultsBackend {
  private readonly options: DiskResultsStoreOptions;
  private writtenSinceScan = 0;
  private lastScan = 0;

  constructor(options: DiskResultsStoreOptions) {
    this.options = options;
  }

  private keyDir(key: string): string {
    return path.join(this.options.dir, createHash('sha256').update(key).digest('hex').slice(0, 40));
  }

  private async writeAtomic(file: string, data: Buffer | string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, file);
  }

  async putPage(key: string, pageIndex: number, bytes: Buffer): Promise<void> {
    await this.writeAtomic(path.join(this.keyDir(key), `page-${pageIndex}`), bytes);
    this.writtenSinceScan += bytes.length;
  }

  async putMeta(key: string, meta: ResultMeta): Promise<void> {
    await this.writeAtomic(path.join(this.keyDir(key), 'meta.json'), JSON.stringify({ key, meta }));
    if (this.writtenSinceScan >= this.options.maxBytes / 10 || Date.now() - this.lastScan >= SCAN_EVERY_MS) await this.evict();
  }

  getPage(key: string, pageIndex: number): Promise<Buffer | null> {
    return this.readPage(key, pageIndex, FRESH_BUFFERS);
  }

  async readPage(key: string, pageIndex: number, buffers: PageBuffers): Promise<Buffer | null> {
    let file;
    try {
      file = await open(path.join(this.keyDir(key), `page-${pageIndex}`), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await file.stat();
      const target = buffers.take(size);
      let read = 0;
      while (read < size) {
        const { bytesRead } = await file.read(target, read, size - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return target.subarray(0, read);
    } finally {
      await file.close();
    }
  }

  async getMeta(key: string): Promise<ResultMeta | null> {
    const file = path.join(this.keyDir(key), 'meta.json');
    try {
      const info = await stat(file);
      const stored = JSON.parse(await readFile(file, 'utf8')) as { meta: ResultMeta };
      if (Date.now() - stored.meta.createdAt > this.options.ttlSeconds * 1000) {
        await this.delete(key);
        return null;
      }
      // The access time drives LRU eviction.
      const now = new Date();
      await utimes(file, now, info.mtime).catch(() => undefined);
      return stored.meta;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.keyDir(key), { recursive: true, force: true });
  }

  async close(): Promise<void> {}

  /** Drops expired results, then least recently read ones until the store fits `maxBytes`. */
  async evict(): Promise<void> {
    this.writtenSinceScan = 0;
    this.lastScan = Date.now();
    let entries: string[];
    try {
      entries = await readdir(this.options.dir);
    } catch {
      return;
    }
    const now = Date.now();
    const results: { dir: string; bytes: number; lastUsed: number }[] = [];
    let total = 0;
    for (const entry of entries) {
      const dir = path.join(this.options.dir, entry);
      try {
        const files = await readdir(dir);
        let bytes = 0;
        let lastUsed = 0;
        let created = Infinity;
        for (const file of files) {
          const info = await stat(path.join(dir, file));
          bytes += info.size;
          if (file === 'meta.json') {
            lastUsed = Math.max(info.atimeMs, info.mtimeMs);
            created = info.mtimeMs;
          }
        }
        // A result still being written has no meta yet: leave it unless it is abandoned.
        if (created === Infinity) {
          const info = await stat(dir);
          if (now - info.mtimeMs > this.options.ttlSeconds * 1000) await rm(dir, { recursive: true, force: true });
          else total += bytes;
          continue;
        }
        if (now - created > this.options.ttlSeconds * 1000) {
          await rm(dir, { recursive: true, force: true });
          continue;
        }
        results.push({ dir, bytes, lastUsed });
        total += bytes;
      } catch {
        // Removed concurrently by another thread.
      }
    }
    results.sort((a, b) => a.lastUsed - b.lastUsed);
    for (const result of results) {
      if (total <= this.options.maxBytes) break;
      await rm(result.dir, { recursive: true, force: true });
      total -= result.bytes;
    }
  }
}
