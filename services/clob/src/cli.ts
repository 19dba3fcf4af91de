// `pmx`: the operator's command line over the operator API, reading the server address and the
// operator key from the same configuration as the service (PMX_CLOB_URL, PMX_OPERATOR_KEY).
//   pmx market create --condition-id 0x… --question "…" --tokens 123,456 [--outcomes Yes,No]
//                     [--tick-size 0.01] [--min-size 5] [--neg-risk]
//   pmx market pause|resume|close <condition id>
//   pmx market resolve <condition id> <winning outcome or its token id | 50/50>
//   pmx fund <address> <amount> [--token <token id>] [--idempotency-key K]   amounts in units: 100 = 100 USDC
//   pmx withdraw <address> <amount> [--token <token id>] [--idempotency-key K]
//   pmx balances <address>
//   pmx proxy <proxy address> <signer address> [--type 1|2] [--replace]
//   pmx markets
//   pmx latency [--reset]                                   where placed orders spend their time

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { parseDecimal } from '@pmx/codec';

export interface CliContext {
  url: string;
  operatorKey: string;
  /** Results (stdout: JSON a script can pipe on). */
  print: (line: string) => void;
  /** Failures and usage (stderr); default `print`. */
  printError?: (line: string) => void;
  /** How long a request may take; default 30 s. */
  timeoutMs?: number;
}

const USAGE = `usage:
  pmx market create --condition-id 0x… --question "…" --tokens <yes id>,<no id> [--outcomes Yes,No] [--tick-size 0.01] [--min-size 5] [--neg-risk]
  pmx market pause|resume|close <condition id>
  pmx market resolve <condition id> <winning outcome or its token id | 50/50>
  pmx fund <address> <amount> [--token <token id>] [--idempotency-key K]
  pmx withdraw <address> <amount> [--token <token id>] [--idempotency-key K]
  pmx balances <address>
  pmx proxy <proxy address> <signer address> [--type 1|2] [--replace]
  pmx markets
  pmx latency [--reset]`;

class UsageError extends Error {}

/** The request may or may not have been carried out: no answer came, or the server failed. */
class OutcomeUnknown extends Error {}

function baseUnits(amount: string | undefined): string {
  const value = amount === undefined ? null : parseDecimal(amount, 6);
  if (value === null || value === 0n)
    throw new UsageError(`amount must be a positive number with at most 6 decimals, got ${amount}`);
  return value.toString();
}

async function call(ctx: CliContext, method: string, path: string, body?: unknown): Promise<unknown> {
  // PMX_CLOB_URL with a trailing slash made `//operator/…`, a 404.
  const timeoutMs = ctx.timeoutMs ?? 30_000;
  const response = await fetch(`${ctx.url.replace(/\/+$/, '')}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.operatorKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((error: Error) => {
    if (error.name === 'TimeoutError')
      throw new OutcomeUnknown(`no answer from the server at ${ctx.url} (PMX_CLOB_URL) within ${timeoutMs / 1000} s`);
    const cause = (error.cause as Error | undefined)?.message;
    // Refused before sending (nothing listens) is certain; anything else may have reached it.
    const refused = (error.cause as { code?: string } | undefined)?.code === 'ECONNREFUSED';
    throw new (refused ? Error : OutcomeUnknown)(
      `cannot reach the server at ${ctx.url} (PMX_CLOB_URL): ${cause ?? error.message}`,
    );
  });
  const payload = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok)
    throw new (response.status >= 500 ? OutcomeUnknown : Error)(
      `${method} ${path}: ${response.status} ${payload.error ?? ''}`.trim(),
    );
  return payload;
}

/** Runs one command; returns the process exit code. */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  try {
    return await runCommand(argv, ctx);
  } catch (error) {
    (ctx.printError ?? ctx.print)(
      error instanceof UsageError ? `${error.message}\n${USAGE}` : `pmx: ${(error as Error).message}`,
    );
    return error instanceof UsageError ? 2 : 1;
  }
}

const OPTIONS = {
  'condition-id': { type: 'string' },
  question: { type: 'string' },
  tokens: { type: 'string' },
  outcomes: { type: 'string', default: 'Yes,No' },
  'tick-size': { type: 'string', default: '0.01' },
  'min-size': { type: 'string', default: '5' },
  'neg-risk': { type: 'boolean', default: false },
  token: { type: 'string' },
  type: { type: 'string', default: '1' },
  reset: { type: 'boolean', default: false },
  replace: { type: 'boolean', default: false },
  'idempotency-key': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** parseArgs, with its complaints (an unknown option, `-5` taken for one) as usage errors. */
function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'))
      throw new UsageError((error as Error).message);
    throw error;
  }
}

/** The arguments after the command, refusing extra ones (`pmx fund 0x… 1 000` must not fund 1). */
function operands(rest: string[], count: number, usage: string): string[] {
  if (rest.length !== count) throw new UsageError(usage);
  return rest;
}

async function runCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    ctx.print(USAGE);
    return 0;
  }
  const show = (value: unknown) => ctx.print(JSON.stringify(value, null, 2));
  switch (command) {
    case 'market': {
      if (rest[0] !== 'create') {
        show(await marketStep(ctx, rest));
        return 0;
      }
      if (rest.length !== 1) throw new UsageError('pmx market create …');
      const tokens = (values.tokens ?? '').split(',');
      const outcomes = values.outcomes.split(',');
      if (tokens.length !== 2 || outcomes.length !== 2)
        throw new UsageError('--tokens and --outcomes take two comma-separated values');
      show(
        await call(ctx, 'POST', '/operator/markets', {
          condition_id: values['condition-id'],
          question: values.question,
          tokens: tokens.map((token_id, i) => ({ token_id, outcome: outcomes[i] })),
          tick_size: values['tick-size'],
          min_order_size: values['min-size'],
          neg_risk: values['neg-risk'],
        }),
      );
      return 0;
    }
    case 'fund':
    case 'withdraw': {
      const [address, amount] = operands(
        rest,
        2,
        `pmx ${command} <address> <amount> [--token <token id>] [--idempotency-key K]`,
      );
      // Every transfer carries a key, so one whose answer was lost can be sent again safely.
      const key = values['idempotency-key'] ?? `pmx-${randomUUID()}`;
      const body = { address, asset: values.token ?? 'collateral', amount: baseUnits(amount), idempotency_key: key };
      try {
        show(await call(ctx, 'POST', `/operator/${command === 'fund' ? 'deposit' : 'withdraw'}`, body));
      } catch (error) {
        if (!(error instanceof OutcomeUnknown)) throw error;
        throw new Error(
          `${error.message}\nthe ${command} may have been applied: run the same command with --idempotency-key ${key} to apply it at most once`,
          { cause: error },
        );
      }
      return 0;
    }
    case 'balances': {
      const [address] = operands(rest, 1, 'pmx balances <address>');
      show(await call(ctx, 'GET', `/operator/balances?address=${encodeURIComponent(address!)}`));
      return 0;
    }
    case 'proxy': {
      const [proxy, signer] = operands(rest, 2, 'pmx proxy <proxy> <signer> [--type 1|2] [--replace]');
      show(
        await call(ctx, 'POST', '/operator/proxy-wallets', {
          proxy,
          signer,
          signature_type: Number(values.type),
          ...(values.replace ? { replace: true } : {}),
        }),
      );
      return 0;
    }
    case 'markets': {
      operands(rest, 0, 'pmx markets');
      show(await allMarkets(ctx));
      return 0;
    }
    case 'latency':
      operands(rest, 0, 'pmx latency [--reset]');
      show(await call(ctx, values.reset ? 'DELETE' : 'GET', '/operator/order-latency'));
      return 0;
    default:
      throw new UsageError(command === undefined ? 'a command is required' : `unknown command ${command}`);
  }
}

const MARKET_USAGE =
  'pmx market create … | pmx market pause|resume|close <condition id> | pmx market resolve <condition id> <outcome | 50/50>';

/** A lifecycle step: `pause|resume|close <condition id>` or `resolve <condition id> <outcome | 50/50>`. */
function marketStep(ctx: CliContext, rest: string[]): Promise<unknown> {
  const [step, conditionId, outcome] = rest;
  if (step === 'resolve') {
    operands(rest, 3, 'pmx market resolve <condition id> <winning outcome or its token id | 50/50>');
    const body = outcome === '50/50' ? { is_50_50_outcome: true } : { outcome };
    return call(ctx, 'POST', `/operator/markets/${encodeURIComponent(conditionId!)}/resolve`, body);
  }
  if (step !== 'pause' && step !== 'resume' && step !== 'close') throw new UsageError(MARKET_USAGE);
  operands(rest, 2, `pmx market ${step} <condition id>`);
  return call(ctx, 'POST', `/operator/markets/${encodeURIComponent(conditionId!)}/${step}`);
}

/** Every page of GET /markets (the server's cursor: `MA==` first, `LTE=` after the last). */
async function allMarkets(ctx: CliContext): Promise<unknown[]> {
  const markets: unknown[] = [];
  for (let cursor = 'MA=='; cursor !== 'LTE=';) {
    const page = (await call(ctx, 'GET', `/markets?next_cursor=${encodeURIComponent(cursor)}`)) as {
      data: unknown[];
      next_cursor: string;
    };
    markets.push(...page.data);
    cursor = page.next_cursor;
  }
  return markets;
}
