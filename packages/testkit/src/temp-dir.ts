// A fresh directory under the OS temp dir for a test's files (e.g. a chdb data directory).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ownerTag } from './owner-tag.ts';

export interface TempDir {
  path: string;
  /** Removes the directory and everything in it; safe to call twice. */
  remove(): Promise<void>;
}

/** `namePrefix` must be `pmx-` and then a-z, 0-9 or -, so the sweep of leftovers can find it. */
export async function createTempDir(namePrefix = 'pmx-test-'): Promise<TempDir> {
  if (!/^pmx-[a-z0-9-]*$/.test(namePrefix))
    throw new Error(`createTempDir: name prefix ${namePrefix} must start with pmx- and hold only a-z, 0-9 and -`);
  // e.g. /tmp/pmx-test-o3fa9c01bp12345-Ab12Cd (mkdtemp adds the last six characters)
  const dir = await mkdtemp(path.join(tmpdir(), `${namePrefix}${ownerTag()}-`));
  return {
    path: dir,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
