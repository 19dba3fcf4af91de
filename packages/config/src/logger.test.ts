import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { envLogLevel } from './logger.ts';

/** Runs a snippet that logs through @pmx/config in a fresh process; its standard output's lines. */
function logged(snippet: string): string[] {
  const script = `import { logger, setLogLevel } from './packages/config/src/logger.ts';\n${snippet}`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter((line) => line !== '');
}

describe('logger', () => {
  it('writes one JSON line per entry with its level name, component and message', () => {
    const [line] = logged(`logger('clob').warn({ shard: 2 }, 'shard 2 slow');`);
    expect(JSON.parse(line!)).toMatchObject({ level: 'warn', name: 'clob', shard: 2, msg: 'shard 2 slow' });
  });

  it('applies a level set later to the components made before it', () => {
    const lines = logged(
      `const early = logger('early'); setLogLevel('warn'); early.info('hidden'); early.warn('shown'); logger('late').info('hidden');`,
    );
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['shown']);
  });

  it('reads PMX_LOG_LEVEL in any case and refuses a name pino does not have', () => {
    expect(envLogLevel({})).toBe('info');
    expect(envLogLevel({ PMX_LOG_LEVEL: ' DEBUG ' })).toBe('debug');
    expect(() => envLogLevel({ PMX_LOG_LEVEL: 'verbose' })).toThrow(/PMX_LOG_LEVEL must be fatal, error, warn/);
  });
});
