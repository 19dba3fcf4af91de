// The operator CLI against a real server: create a market, fund, read balances, withdraw, read
// order latency.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.ts';
import { startClob, type Harness } from './testing/clob-harness.ts';

let h: Harness;
const lines: string[] = [];
const ctx = () => ({ url: h.url, operatorKey: h.operatorKey, print: (line: string) => lines.push(line) });

beforeAll(async () => {
  h = await startClob();
});
afterAll(async () => {
  await h?.close();
});

describe('pmx', () => {
  it('creates a market, funds an address, shows and withdraws its balance', async () => {
    const conditionId = `0x${randomBytes(32).toString('hex')}`;
    const address = `0x${randomBytes(20).toString('hex')}`;
    expect(
      await runCli(
        [
          'market',
          'create',
          '--condition-id',
          conditionId,
          '--question',
          'Will it work?',
          '--tokens',
          '9001,9002',
          '--tick-size',
          '0.001',
        ],
        ctx(),
      ),
    ).toBe(0);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      condition_id: conditionId,
      minimum_tick_size: 0.001,
      assets_ids: ['9001', '9002'],
    });
    expect(await runCli(['fund', address, '100.5'], ctx())).toBe(0);
    expect(await runCli(['fund', address, '7', '--token', '9001'], ctx())).toBe(0);
    expect(await runCli(['balances', address], ctx())).toBe(0);
    expect(JSON.parse(lines.at(-1)!).balances).toEqual({
      collateral: { total: 100_500_000, reserved: 0, available: 100_500_000 },
      '9001': { total: 7_000_000, reserved: 0, available: 7_000_000 },
    });
    expect(await runCli(['withdraw', address, '0.5'], ctx())).toBe(0);
    expect(JSON.parse(lines.at(-1)!).balance).toEqual({ total: 100_000_000, reserved: 0, available: 100_000_000 });
    expect(await runCli(['markets'], ctx())).toBe(0);
    expect((JSON.parse(lines.at(-1)!) as { condition_id: string }[]).map((m) => m.condition_id)).toContain(conditionId);
  });

  it('pauses, resumes, closes and resolves a market, each step answered with the market as it now is', async () => {
    const { conditionId, yes } = await h.createMarket();
    const step = async (argv: string[]) => {
      expect(await runCli(['market', ...argv], ctx()), lines.at(-1)).toBe(0);
      return JSON.parse(lines.at(-1)!);
    };
    expect(await step(['pause', conditionId])).toMatchObject({ status: 'paused', accepting_orders: false });
    expect(await step(['resume', conditionId])).toMatchObject({ status: 'active', accepting_orders: true });
    expect(await step(['close', conditionId])).toMatchObject({ status: 'closed', closed: true, cancelled_orders: 0 });
    expect(await step(['resolve', conditionId, yes])).toMatchObject({
      status: 'resolved',
      tokens: [{ token_id: yes, winner: true }, { winner: false }],
    });
    expect(await runCli(['market', 'resolve', conditionId, '50/50'], ctx())).toBe(1);
    expect(lines.at(-1)).toBe(`pmx: POST /operator/markets/${conditionId}/resolve: 400 market is already resolved`);
    const other = await h.createMarket();
    expect(await step(['resolve', other.conditionId, '50/50'])).toMatchObject({ is_50_50_outcome: true });
    expect(await runCli(['market', 'resolve', conditionId], ctx())).toBe(2);
    expect(lines.at(-1)).toMatch(/^pmx market resolve <condition id> <winning outcome or its token id \| 50\/50>/);
    expect(await runCli(['market', 'reopen', conditionId], ctx())).toBe(2);
    expect(await runCli(['market', 'pause'], ctx())).toBe(2);
  });

  it('shows and resets where placed orders spend their time', async () => {
    expect(await runCli(['latency', '--reset'], ctx())).toBe(0);
    expect(await runCli(['latency'], ctx())).toBe(0);
    const report = JSON.parse(lines.at(-1)!);
    expect(Object.keys(report)).toEqual(['since', 'signatureCheck', 'match', 'total']);
    expect(report.total).toEqual({ count: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, maxMs: 0 });
    // PMX_CLOB_URL written with a trailing slash.
    expect(await runCli(['latency'], { ...ctx(), url: `${h.url}/` })).toBe(0);
  });

  it('prints its usage when asked', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['fund', '--help']]) {
      lines.length = 0;
      expect(await runCli(argv, ctx())).toBe(0);
      expect(lines).toEqual([expect.stringMatching(/^usage:\n {2}pmx market create/)]);
    }
  });

  it('explains bad usage and server refusals with non-zero exit codes', async () => {
    expect(await runCli(['fund', '0xabc'], ctx())).toBe(2);
    expect(lines.at(-1)).toMatch(/^pmx fund <address> <amount>/);
    expect(await runCli(['fund', '0xabc', '0'], ctx())).toBe(2);
    expect(lines.at(-1)).toMatch(/amount must be a positive number/);
    // Not a stack trace: `-5` reads as an option, a mistyped option is unknown, and an amount
    // written with a space must not fund its first part.
    for (const argv of [
      ['fund', '0xabc', '-5'],
      ['fund', '0xabc', '5', '--tokn', '1'],
      ['fund', '0xabc', '1', '000'],
      ['markets', 'all'],
    ]) {
      expect(await runCli(argv, ctx())).toBe(2);
      expect(lines.at(-1)).toMatch(/usage:/);
    }
    expect(await runCli(['markets'], { ...ctx(), url: 'http://127.0.0.1:1' })).toBe(1);
    expect(lines.at(-1)).toMatch(/^pmx: cannot reach the server at http:\/\/127.0.0.1:1 \(PMX_CLOB_URL\)/);
    expect(await runCli(['withdraw', `0x${'2'.repeat(40)}`, '1'], ctx())).toBe(1);
    expect(lines.at(-1)).toMatch(/not enough available balance/);
    expect(await runCli(['frobnicate'], { ...ctx() })).toBe(2);
    expect(await runCli(['balances', `0x${'2'.repeat(40)}`], { ...ctx(), operatorKey: 'wrong' })).toBe(1);
    expect(lines.at(-1)).toMatch(/401/);
  });

  it('prints failures apart from results, so a script can pipe the JSON on', async () => {
    const out: string[] = [];
    const errors: string[] = [];
    const split = {
      ...ctx(),
      print: (line: string) => out.push(line),
      printError: (line: string) => errors.push(line),
    };
    expect(await runCli(['balances', `0x${'3'.repeat(40)}`], split)).toBe(0);
    expect(await runCli(['markets'], { ...split, url: 'http://127.0.0.1:1' })).toBe(1);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toMatchObject({ address: `0x${'3'.repeat(40)}` });
    expect(errors).toEqual([expect.stringMatching(/^pmx: cannot reach the server/)]);
  });

  it('sends each transfer with an idempotency key, and names it when the outcome is unknown', async () => {
    const http = await import('node:http');
    // A server that reads the deposit and drops the connection (the answer lost), or never answers.
    const bodies: string[] = [];
    const flaky = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        bodies.push(body);
        if (req.url === '/operator/deposit') req.socket.destroy();
        else setTimeout(() => res.end('{}'), 2_000).unref();
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const flakyUrl = `http://127.0.0.1:${(flaky.address() as { port: number }).port}`;
    const address = `0x${randomBytes(20).toString('hex')}`;
    try {
      expect(await runCli(['fund', address, '5'], { ...ctx(), url: flakyUrl })).toBe(1);
      const key = (JSON.parse(bodies[0]!) as { idempotency_key: string }).idempotency_key;
      expect(key).toMatch(/^pmx-[0-9a-f-]{36}$/);
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `may have been applied: run the same command with --idempotency-key ${key} to apply it at most once$`,
        ),
      );
      expect(await runCli(['withdraw', address, '5'], { ...ctx(), url: flakyUrl, timeoutMs: 200 })).toBe(1);
      expect(lines.at(-1)).toMatch(
        /^pmx: no answer from the server .* within 0\.2 s\nthe withdraw may have been applied/,
      );
    } finally {
      flaky.close();
    }
    // Run again with the key, twice: applied once.
    const key = (JSON.parse(bodies[0]!) as { idempotency_key: string }).idempotency_key;
    for (let i = 0; i < 2; i++) expect(await runCli(['fund', address, '5', '--idempotency-key', key], ctx())).toBe(0);
    expect(await runCli(['balances', address], ctx())).toBe(0);
    expect(JSON.parse(lines.at(-1)!).balances.collateral.total).toBe(5_000_000);
  });

  it('says in one line that a command was carried out when its result cannot be written, and keeps quiet for a reader that went away', async () => {
    const { spawn } = await import('node:child_process');
    const { openSync, closeSync } = await import('node:fs');
    const run = (argv: string[], stdout: 'pipe' | number, closeEarly = false) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'services/clob/src/cli-main.ts', ...argv], {
          cwd: new URL('../../..', import.meta.url).pathname,
          env: { ...process.env, PMX_CLOB_URL: h.url, PMX_OPERATOR_KEY: h.operatorKey },
          stdio: ['ignore', stdout, 'pipe'],
        });
        // The reader of the output goes away before the result comes (as `| head -1` does).
        if (closeEarly) child.stdout!.destroy();
        let stderr = '';
        child.stderr!.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const address = `0x${randomBytes(20).toString('hex')}`;
    const full = openSync('/dev/full', 'w');
    try {
      const funded = await run(['fund', address, '7'], full);
      expect(funded.code).toBe(1);
      expect(funded.stderr).toMatch(
        /^pmx: the command was carried out, but its result could not be written to standard output: ENOSPC[^\n]*\n$/,
      );
    } finally {
      closeSync(full);
    }
    expect(await runCli(['balances', address], ctx())).toBe(0);
    expect(JSON.parse(lines.at(-1)!).balances.collateral.total).toBe(7_000_000);
    expect(await run(['markets'], 'pipe', true)).toEqual({ code: 0, stderr: '' });
  });
});
