// A fresh directory under the OS temp dir for a test's files (e.g. a chdb data directory).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempDir {
  path: string;
  /** Removes the directory and everything in it; safe to call twice. */
  remove(): Promise<void>;
}

export async function createTempDir(namePrefix = 'pmx-test-'): Promise<TempDir> {
  const dir = await mkdtemp(path.join(tmpdir(), namePrefix));
  return {
    path: dir,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
