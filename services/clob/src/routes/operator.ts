// The operator API (bearer token): create markets, deposit and withdraw collateral or tokens for
// an address, read balances, register proxy wallets, read (and reset) where orders spend their
// time. `pmx` (the CLI) wraps these.

import { BYTES32_HEX, parseDecimal, parseIsoDate } from '@pmx/codec';
import { HttpError, type Hook, type Route } from '@pmx/http';
import { COLLATERAL, type RiskBook } from '@pmx/risk';
import type { BookCache } from '../market-data/book-cache.ts';
import { isTickSize, type MarketRecord, type MarketRegistry, type NewMarket } from '../markets/market-registry.ts';
import { ProxyConflict, ProxyUnsettled, type ProxyWallets } from '../markets/proxy-wallets.ts';
import type { OrderLatency } from '../orders/order-latency.ts';
import { IdempotencyKeyConflict, Unsettled, type Funding, type TransferOutcome } from '../risk/funding.ts';
import { marketDetail } from './markets.ts';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A uint256 in decimal, without leading zeros (so one token has one spelling). */
const TOKEN_ID = /^(0|[1-9][0-9]{0,77})$/;
const MAX_UINT256 = (1n << 256n) - 1n;
/** A token id as the chain has it: a decimal uint256 (78 digits can still be past 2^256 − 1). */
const isTokenId = (id: string): boolean => TOKEN_ID.test(id) && BigInt(id) <= MAX_UINT256;
/** Largest minimum order size, in tokens: beyond it no order could be placed anyway. */
const MAX_MIN_ORDER_SIZE = 1_000_000_000;

function object(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

function str(body: Record<string, unknown>, field: string, pattern?: RegExp, optional = false): string {
  const value = body[field];
  if (value === undefined && optional) return '';
  if (typeof value !== 'string' || (pattern !== undefined && !pattern.test(value)))
    throw new HttpError(400, `${field} is missing or malformed`);
  return value;
}

function only(body: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(body)) if (!allowed.includes(key)) throw new HttpError(400, `unknown field ${key}`);
}

export function parseNewMarket(raw: unknown): NewMarket {
  const body = object(raw);
  only(body, [
    'condition_id',
    'question',
    'tokens',
    'tick_size',
    'min_order_size',
    'neg_risk',
    'question_id',
    'description',
    'market_slug',
    'end_date_iso',
    'icon',
    'image',
    'tags',
  ]);
  const tokens = body.tokens;
  if (!Array.isArray(tokens) || tokens.length !== 2)
    throw new HttpError(400, 'tokens must be two {token_id, outcome} objects');
  const parsed = tokens.map((t) => {
    const token = object(t);
    only(token, ['token_id', 'outcome']);
    const id = str(token, 'token_id', TOKEN_ID);
    if (!isTokenId(id)) throw new HttpError(400, 'token_id must be a decimal uint256 (at most 2^256 - 1)');
    return { id, outcome: str(token, 'outcome') };
  });
  if (parsed[0]!.id === parsed[1]!.id) throw new HttpError(400, 'the two token ids must differ');
  const tickSize = body.tick_size ?? '0.01';
  if (!isTickSize(tickSize))
    throw new HttpError(400, 'tick_size must be one of 0.1, 0.01, 0.005, 0.001, 0.0025, 0.0001');
  const min = body.min_order_size ?? '5';
  const minOrderSize = typeof min === 'string' || typeof min === 'number' ? parseDecimal(String(min), 2) : null;
  if (minOrderSize === null || minOrderSize > BigInt(MAX_MIN_ORDER_SIZE * 100)) {
    throw new HttpError(
      400,
      `min_order_size must be a token amount with at most 2 decimals, up to ${MAX_MIN_ORDER_SIZE}`,
    );
  }
  if (body.neg_risk !== undefined && typeof body.neg_risk !== 'boolean')
    throw new HttpError(400, 'neg_risk must be a boolean');
  const tags = body.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string'))
    throw new HttpError(400, 'tags must be an array of strings');
  const endDate = str(body, 'end_date_iso', undefined, true);
  if (endDate !== '' && parseIsoDate(endDate) === undefined)
    throw new HttpError(400, 'end_date_iso must be an ISO 8601 date or date-time, e.g. 2026-12-31T12:00:00Z');
  return {
    conditionId: str(body, 'condition_id', BYTES32_HEX).toLowerCase(),
    question: str(body, 'question'),
    tokens: [parsed[0]!.id, parsed[1]!.id],
    outcomes: [parsed[0]!.outcome, parsed[1]!.outcome],
    tickSize,
    minOrderSize: Number(minOrderSize) * 10_000,
    negRisk: body.neg_risk === true,
    questionId: str(body, 'question_id', undefined, true),
    description: str(body, 'description', undefined, true),
    slug: str(body, 'market_slug', undefined, true),
    endDateIso: endDate === '' ? null : endDate,
    icon: str(body, 'icon', undefined, true),
    image: str(body, 'image', undefined, true),
    tags: tags as string[],
  };
}

/** The caller's own id of a transfer, so a retry is answered rather than applied again. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/** Whether `existing` is what `wanted` asks for: every field the request gave has the same value. */
function sameMarket(existing: MarketRecord, wanted: NewMarket): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const core =
    existing.question === wanted.question &&
    same(existing.tokens, wanted.tokens) &&
    same(existing.outcomes, wanted.outcomes) &&
    existing.tickSize === wanted.tickSize &&
    existing.minOrderSize === wanted.minOrderSize &&
    existing.negRisk === wanted.negRisk;
  const optional: (keyof NewMarket & keyof MarketRecord)[] = [
    'questionId',
    'description',
    'slug',
    'icon',
    'image',
    'tags',
  ];
  // The end date as stored (Postgres gives it back as an ISO string of its own spelling).
  const endDate = (text: string | null | undefined) => (text == null ? null : parseIsoDate(text)?.getTime());
  return (
    core &&
    optional.every((field) => wanted[field] === undefined || same(existing[field], wanted[field])) &&
    (wanted.endDateIso === undefined || endDate(existing.endDateIso) === endDate(wanted.endDateIso))
  );
}

function transfer(raw: unknown): { address: string; asset: string; amount: number; idempotencyKey?: string } {
  const body = object(raw);
  only(body, ['address', 'asset', 'amount', 'idempotency_key']);
  const idempotencyKey = body.idempotency_key === undefined ? undefined : str(body, 'idempotency_key', IDEMPOTENCY_KEY);
  const address = str(body, 'address', ADDRESS).toLowerCase();
  const asset = body.asset === undefined ? COLLATERAL : str(body, 'asset');
  if (asset !== COLLATERAL && !isTokenId(asset)) throw new HttpError(400, 'asset must be "collateral" or a token id');
  const amount = typeof body.amount === 'string' && /^[0-9]{1,16}$/.test(body.amount) ? Number(body.amount) : NaN;
  if (!(amount > 0) || !Number.isSafeInteger(amount))
    throw new HttpError(400, 'amount must be a positive integer of base units (6 decimals), as a string');
  return idempotencyKey === undefined ? { address, asset, amount } : { address, asset, amount, idempotencyKey };
}

/** A transfer's outcome; a key used for another transfer is 409, one not settled yet 503. */
async function conflictsAs409(outcome: Promise<TransferOutcome>): Promise<TransferOutcome> {
  try {
    return await outcome;
  } catch (error) {
    if (error instanceof IdempotencyKeyConflict) throw new HttpError(409, error.message);
    if (error instanceof Unsettled) throw new HttpError(503, error.message, { headers: { 'retry-after': '2' } });
    throw error;
  }
}

export interface OperatorDeps {
  markets: MarketRegistry;
  books: BookCache;
  risk: RiskBook;
  funding: Funding;
  proxies: ProxyWallets;
  /** Makes a new market tradable: risk book and its shard; throws (nothing opened) if its shard refuses. */
  openMarket: (market: MarketRecord) => Promise<void>;
  /** False while the shards recover (balances are being rebuilt) or once trading halted. */
  ready: () => boolean;
  /** Throws 425 while the shards recover, 503 once trading halted (TradingCore.assertAllReady). */
  assertReady: () => void;
  /** Each shard's sequence, open orders and state hash (for operators and recovery checks). */
  shardStatus: () => Promise<unknown[]>;
  /** Where placed orders spend their time in the server. */
  latency: OrderLatency;
  /** Cancels every open order whose maker is this address; resolves to how many could not be. */
  cancelMakerOrders: (maker: string) => Promise<number>;
  /** After a registration: gateways read the proxy wallets again. */
  proxiesChanged: () => void;
}

export function operatorRoutes(deps: OperatorDeps, auth: Hook<object>): Route<object>[] {
  const before = [auth];
  const funded: Hook<object>[] = [auth, () => deps.assertReady()];
  return [
    {
      method: 'POST',
      path: '/operator/markets',
      options: { before },
      handler: async (ctx) => {
        const wanted = parseNewMarket(ctx.json());
        // Stored only once its shard has opened it: a market is made and trading, or not made.
        const created = await deps.markets.create(wanted, deps.openMarket);
        if (created === 'exists') {
          // A retry (after a timeout) of a create that went through: answered as done, not failed.
          const existing = deps.markets.get(wanted.conditionId);
          if (existing !== undefined && sameMarket(existing, wanted))
            return { status: 200, body: marketDetail(existing, deps.books) };
          throw new HttpError(400, 'a market with this condition id or token id exists');
        }
        // One whose creation's answer was lost, now taken in, may hold other fields than asked.
        if (!sameMarket(created, wanted))
          throw new HttpError(400, 'a market with this condition id or token id exists');
        return { status: 201, body: marketDetail(created, deps.books) };
      },
    },
    {
      method: 'POST',
      path: '/operator/deposit',
      options: { before: funded },
      handler: async (ctx) => {
        const { address, asset, amount, idempotencyKey } = transfer(ctx.json());
        if (asset !== COLLATERAL && deps.markets.byTokenId(asset) === undefined)
          throw new HttpError(400, `unknown token ${asset}`);
        const outcome = await conflictsAs409(deps.funding.deposit(address, asset, amount, idempotencyKey));
        if (outcome === 'refused')
          throw new HttpError(
            400,
            `the deposit would take a total of ${asset} past 9007199254740991 base units (trades mint tokens from collateral and merge pairs into it, so the collateral supply, per market the smaller of its two token supplies, and the widest reach of a market — its larger supply minus its smaller — must stay below it together)`,
          );
        return {
          body: {
            address,
            asset,
            balance: deps.risk.balance(address, asset),
            ...(outcome === 'replayed' ? { replayed: true } : {}),
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/operator/withdraw',
      options: { before: funded },
      handler: async (ctx) => {
        const { address, asset, amount, idempotencyKey } = transfer(ctx.json());
        const outcome = await conflictsAs409(deps.funding.withdraw(address, asset, amount, idempotencyKey));
        if (outcome === 'refused') {
          const { available, reserved } = deps.risk.balance(address, asset);
          throw new HttpError(
            400,
            `not enough available balance: ${available} of ${asset} available, ${amount} asked (base units; ${reserved} reserved by open orders cannot be withdrawn)`,
          );
        }
        return {
          body: {
            address,
            asset,
            balance: deps.risk.balance(address, asset),
            ...(outcome === 'replayed' ? { replayed: true } : {}),
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/operator/balances',
      options: { before },
      handler: (ctx) => {
        const address = ctx.query.get('address') ?? '';
        if (!ADDRESS.test(address)) throw new HttpError(400, 'address is required');
        deps.assertReady();
        return { body: { address: address.toLowerCase(), balances: deps.risk.balances(address.toLowerCase()) } };
      },
    },
    {
      method: 'GET',
      path: '/operator/state',
      options: { before },
      handler: async () => ({
        body: {
          ready: deps.ready(),
          shards: deps.ready() ? await deps.shardStatus() : [],
          invariants: deps.risk.checkInvariants(),
        },
      }),
    },
    {
      method: 'GET',
      path: '/operator/order-latency',
      options: { before },
      handler: () => ({ body: deps.latency.report() }),
    },
    {
      method: 'DELETE',
      path: '/operator/order-latency',
      options: { before },
      handler: () => ({ body: deps.latency.reset() }),
    },
    {
      method: 'POST',
      path: '/operator/proxy-wallets',
      options: { before },
      handler: async (ctx) => {
        const body = object(ctx.json());
        only(body, ['proxy', 'signer', 'signature_type', 'replace']);
        const signatureType = body.signature_type;
        if (signatureType !== 1 && signatureType !== 2) throw new HttpError(400, 'signature_type must be 1 or 2');
        if (body.replace !== undefined && typeof body.replace !== 'boolean')
          throw new HttpError(400, 'replace must be a boolean');
        let created: boolean;
        try {
          created = await deps.proxies.register(
            { proxy: str(body, 'proxy', ADDRESS), signer: str(body, 'signer', ADDRESS), signatureType },
            {
              replace: body.replace === true,
              // The old signer's orders for the proxy go first; while shards recover not all are known.
              beforeMove: async (proxy) => {
                deps.assertReady();
                const left = await deps.cancelMakerOrders(proxy);
                if (left > 0)
                  throw new HttpError(
                    503,
                    `${left} of the proxy's open orders could not be cancelled; the proxy was not moved: retry shortly`,
                  );
              },
            },
          );
        } catch (error) {
          if (error instanceof ProxyConflict) throw new HttpError(409, error.message);
          if (error instanceof ProxyUnsettled) throw new HttpError(503, error.message);
          throw error;
        }
        deps.proxiesChanged();
        return {
          status: created ? 201 : 200,
          body: {
            proxy: String(body.proxy).toLowerCase(),
            signer: String(body.signer).toLowerCase(),
            signature_type: signatureType,
          },
        };
      },
    },
  ];
}
