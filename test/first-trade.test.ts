// The README's first trade, run as written: every command of its "A first trade" section after the
// start (the `pmx` CLI, the example with the official client, curl's reads) against a real
// exchange with ingest running, so the steps a newcomer follows cannot rot.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '@pmx/ledger';
import type { Harness } from '@pmx/clob/testing';
import { startClobWithIngest, type ClobWithIngest } from './clob-with-ingest.ts';

const ROOT = new URL('../', import.meta.url);
const README_URL = 'http://127.0.0.1:8080';
const run = promisify(execFile);

let system: ClobWithIngest;
let h: Harness;

beforeAll(async () => {
  system = await startClobWithIngest({}, { edge: true });
  h = system.h;
}, 120_000);

afterAll(async () => {
  await system?.close();
});

/** The command lines of the README's "A first trade" code blocks (bash), comments dropped. */
function firstTradeCommands(): string[] {
  const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('A first trade'));
  if (section === undefined) throw new Error('README.md has no "A first trade" section');
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

/** Runs one README line against the test's exchange: its address and operator key replace the defaults. */
async function runLine(line: string): Promise<string> {
  const command = line.replaceAll(README_URL, system.url);
  if (command.startsWith('curl ')) {
    // Read with fetch: the same request, without needing curl on the machine.
    const url = /"([^"]+)"/.exec(command)?.[1];
    if (url === undefined) throw new Error(`cannot read the URL of: ${line}`);
    const response = await fetch(url);
    expect(response.status, line).toBe(200);
    return await response.text();
  }
  const { stdout } = await run('bash', ['-c', command], {
    cwd: ROOT,
    env: { ...process.env, PMX_CLOB_URL: system.url, PMX_OPERATOR_KEY: h.operatorKey },
    timeout: 60_000,
  });
  return stdout;
}

describe('the README', () => {
  it('takes a newcomer from a market and two funded wallets to a matched, confirmed trade', async () => {
    const commands = firstTradeCommands();
    expect(commands[0]).toBe('bash infra/up.sh');
    const outputs: string[] = [];
    for (const line of commands.slice(1)) outputs.push(await runLine(line));
    const all = outputs.join('\n');

    expect(all).toContain('"question": "Will it rain in Lisbon tomorrow?"');
    expect(all).toContain('seller: SELL 10 @ 0.6 → live');
    expect(all).toContain('buyer:  BUY 10 @ 0.6 → matched: paid 6 USDC for 10 tokens');
    expect(all).toMatch(/trade: \{"id":"[^"]+","side":"BUY","size":"10","price":"0.6","status":"CONFIRMED"/);
    const [book, last] = outputs.slice(-2).map((text) => JSON.parse(text));
    expect(book).toMatchObject({ asset_id: '1001', bids: [], asks: [], last_trade_price: '0.6' });
    expect(last).toEqual({ price: '0.6' });

    expect(await checkLedger(h.sql)).toEqual([]);
    h.expectConsistent();
  });
});
