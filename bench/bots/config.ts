// The bots' settings: command-line options over the same environment the services read (where the
// exchange is, its operator key, Postgres and Redis for the end-of-run check). Nothing else in
// bench/bots reads process.env.

import { parseArgs } from 'node:util';
import { connectionSettings, DEV_OPERATOR_KEY, envString, isLoopbackHost, type Env } from '@pmx/config';
import { DEFAULT_BANDS, type Band } from './bands.ts';

export interface BotsOptions {
  /** The exchange's public port, where bots trade (PMX_BOTS_URL, else PMX_CLOB_URL). */
  url: string;
  /** The operator API (markets, funding): PMX_BOTS_OPERATOR_URL, else `url`. */
  operatorUrl: string;
  operatorKey: string;
  makers: number;
  takers: number;
  noise: number;
  markets: number;
  seconds: number;
  /** Orders per second per taker / per noise trader (Poisson means). */
  takerRate: number;
  noiseRate: number;
  quoteMs: number;
  /** Fair-value drift, cents per √s. */
  drift: number;
  /** Collateral each bot is funded with, in USDC. */
  funds: number;
  heartbeatMs: number;
  /** Between two reconciler rounds over all bots. */
  reconcileMs: number;
  sampleMs: number;
  /** Give each bot a loopback source address of its own (127.0.0.2, …), as traders on their own hosts. */
  ownAddresses: boolean;
  bands: Band[];
  skewCents: number;
  maxInventory: number;
  seed: number;
  /** Where the run's folder goes (default bench/results). */
  resultsDir?: string;
  /** The run's name (default bots-<date>-<time>). */
  name?: string;
  /** Seconds into the run at which the active core is SIGKILLed (a failover run), if at all. */
  killActiveCoreAt?: number;
  /** The cores' health URLs, where the active one is found (infra/cluster.sh's 8090 and 8091). */
  coreUrls: string[];
}

export interface Connections {
  pgUrl: string;
  redisUrl: string;
  redisPrefix: string;
}

const USAGE = `usage: pnpm bots [--makers 4] [--takers 8] [--noise 4] [--markets 4] [--seconds 60]
       [--taker-rate 5] [--noise-rate 2] [--quote-ms 500] [--drift 1] [--funds 20000]
       [--url http://127.0.0.1:8080] [--operator-url URL] [--no-own-addresses] [--seed 1] [--name RUN]
       [--kill-active-core-at S] [--core-urls http://127.0.0.1:8090,http://127.0.0.1:8091]`;

const CORE_URLS = 'http://127.0.0.1:8090,http://127.0.0.1:8091';

export class BotsUsageError extends Error {
  constructor(message: string) {
    super(`${message}\n${USAGE}`);
  }
}

/** A positive number option within bounds. */
function number(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min || parsed > max)
    throw new BotsUsageError(`--${name} must be a number from ${min} to ${max}, got ${value}`);
  return parsed;
}

/** Whole-number options are bounded so a run stays bounded in count and time. */
function whole(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  const parsed = number(value, name, fallback, min, max);
  if (!Number.isInteger(parsed)) throw new BotsUsageError(`--${name} must be a whole number, got ${value}`);
  return parsed;
}

export function loadBotsOptions(argv: string[], env: Env): BotsOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((arg) => arg !== '--'),
      options: {
        makers: { type: 'string' },
        takers: { type: 'string' },
        noise: { type: 'string' },
        markets: { type: 'string' },
        seconds: { type: 'string' },
        'taker-rate': { type: 'string' },
        'noise-rate': { type: 'string' },
        'quote-ms': { type: 'string' },
        drift: { type: 'string' },
        funds: { type: 'string' },
        url: { type: 'string' },
        'operator-url': { type: 'string' },
        'no-own-addresses': { type: 'boolean', default: false },
        seed: { type: 'string' },
        name: { type: 'string' },
        'kill-active-core-at': { type: 'string' },
        'core-urls': { type: 'string' },
      },
    });
  } catch (error) {
    throw new BotsUsageError((error as Error).message);
  }
  const v = parsed.values;
  const url = (
    v.url ?? envString(env, 'PMX_BOTS_URL', envString(env, 'PMX_CLOB_URL', 'http://127.0.0.1:8080'))
  ).replace(/\/+$/, '');
  if (!URL.canParse(url)) throw new BotsUsageError(`--url must be a URL such as http://127.0.0.1:8080, got ${url}`);
  if (v.name !== undefined && !/^[\w.-]{1,64}$/.test(v.name))
    throw new BotsUsageError('--name takes letters, digits, _ . - (a folder name)');
  const coreUrls = (v['core-urls'] ?? CORE_URLS).split(',').map((u) => u.trim().replace(/\/+$/, ''));
  if (coreUrls.some((u) => !URL.canParse(u)))
    throw new BotsUsageError(`--core-urls must be URLs separated by commas, got ${v['core-urls']}`);
  const seconds = number(v.seconds, 'seconds', 60, 1, 3600);
  const killAt = v['kill-active-core-at'];
  return {
    url,
    operatorUrl: (v['operator-url'] ?? envString(env, 'PMX_BOTS_OPERATOR_URL', url)).replace(/\/+$/, ''),
    operatorKey: envString(env, 'PMX_OPERATOR_KEY', DEV_OPERATOR_KEY),
    makers: whole(v.makers, 'makers', 4, 0, 200),
    takers: whole(v.takers, 'takers', 8, 0, 200),
    noise: whole(v.noise, 'noise', 4, 0, 200),
    markets: whole(v.markets, 'markets', 4, 1, 100),
    seconds,
    takerRate: number(v['taker-rate'], 'taker-rate', 5, 0.01, 1000),
    noiseRate: number(v['noise-rate'], 'noise-rate', 2, 0.01, 1000),
    quoteMs: whole(v['quote-ms'], 'quote-ms', 500, 50, 60_000),
    drift: number(v.drift, 'drift', 1, 0, 20),
    funds: whole(v.funds, 'funds', 20_000, 10, 10_000_000),
    heartbeatMs: 3000,
    reconcileMs: 2000,
    sampleMs: 1000,
    // Loopback only: a source address of 127.0.x.y cannot reach another host.
    ownAddresses: !v['no-own-addresses'] && isLoopbackHost(new URL(url).hostname),
    bands: DEFAULT_BANDS,
    skewCents: 3,
    maxInventory: 400,
    seed: whole(v.seed, 'seed', 1, 0, 2 ** 31),
    ...(v.name === undefined ? {} : { name: v.name }),
    ...(killAt === undefined ? {} : { killActiveCoreAt: number(killAt, 'kill-active-core-at', 0, 0, seconds) }),
    coreUrls,
  };
}

export function loadConnections(env: Env): Connections {
  const { pgUrl, redisUrl, redisPrefix } = connectionSettings(env);
  return { pgUrl, redisUrl, redisPrefix };
}
