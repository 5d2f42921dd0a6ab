import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory of this run's own for files its test apps share (run-dir.ts): the metadata store's template, the examples files. */
    runDir: string;
  }
}

/** Once per run, before any test file: a fresh directory for the run's shared files, removed when the run ends. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-run-'));
  project.provide('runDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
