import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTempDir } from './temp-dir.ts';

describe('createTempDir', () => {
  it('creates a fresh directory and removes it with its contents', async () => {
    const dir = await createTempDir();
    expect(path.basename(dir.path)).toMatch(/^pmx-test-o[0-9a-f]{8}p[0-9]+-[A-Za-z0-9]{6}$/);
    writeFileSync(path.join(dir.path, 'f.txt'), 'x');
    await dir.remove();
    expect(existsSync(dir.path)).toBe(false);
    await dir.remove();
  });

  it('refuses a name the sweep of leftovers would not find', async () => {
    for (const prefix of ['scratch-', 'pmx-Foo-', 'pmx-a_b-'])
      await expect(createTempDir(prefix)).rejects.toThrow(/must start with pmx- and hold only/);
  });
});
