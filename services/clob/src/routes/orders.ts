// Trading writes and the caller's open orders, all behind level-2 auth: place one or a batch,
// cancel one, many, all, or a market's; list open orders and read one.

import { formatPrice, formatUnits } from '@pmx/codec';
import { HttpError, type Hook, type RequestContext, type Route } from '@pmx/http';
import { OrderType, Side } from '@pmx/matching';
import type { ApiKeyLocals } from '@pmx/auth';
import type { MarketRegistry } from '../markets/market-registry.ts';
import type { LedgerOrder, OrderStatusName } from '../orders/ledger-order.ts';
import type { OrderRecord } from '../orders/open-orders.ts';
import { IntakeError, parseOrderEnvelope } from '../orders/order-intake.ts';
import type { GatewayOrders } from '../gateway/gateway-orders.ts';
import { seqCursorPage } from './token-param.ts';
import { logger } from '@pmx/config';

const MAX_BATCH = 15;
/** Ids per DELETE /orders, as the real service (duplicates are cancelled once). */
const MAX_CANCEL = 3000;
const ORDER_PAGE = 500;
const TYPE_NAMES = ['GTC', 'GTD', 'FOK', 'FAK'];

function asUserError(error: unknown): never {
  if (error instanceof IntakeError) throw new HttpError(400, error.message);
  throw error;
}

export interface PlaceFailure {
  success: false;
  errorMsg: string;
  orderID: '';
  takingAmount: '';
  makingAmount: '';
  status: '';
  tradeIDs: [];
  transactionsHashes: [];
}

/**
 * `POST /orders`: places every order of a batch at once and answers each on its own. Whatever one
 * order fails with (a refusal, the ledger unavailable for its replay check, a fault) becomes that
 * order's `success: false`, so the others' answers, some of them placed or matched, are never lost
 * to one error. Faults are logged and reported as an internal error.
 */
export function placeEach<T>(
  envelopes: unknown[],
  place: (envelope: unknown) => Promise<T>,
  logFault: (error: unknown) => void = defaultLogFault,
): Promise<(T | PlaceFailure)[]> {
  return Promise.all(
    envelopes.map(async (envelope): Promise<T | PlaceFailure> => {
      try {
        return await place(envelope);
      } catch (error) {
        const known = error instanceof IntakeError || error instanceof HttpError;
        if (!known) logFault(error);
        const errorMsg = known ? error.message : 'internal server error';
        return {
          success: false,
          errorMsg,
          orderID: '',
          takingAmount: '',
          makingAmount: '',
          status: '',
          tradeIDs: [],
          transactionsHashes: [],
        };
      }
    }),
  );
}

function defaultLogFault(error: unknown): void {
  logger('clob').error({ err: error }, 'POST /orders: an order failed');
}

function wireOrder(order: OrderRecord, markets: MarketRegistry, status: OrderStatusName = 'LIVE') {
  const market = markets.get(order.market)!;
  return {
    id: order.orderId,
    status,
    owner: order.owner,
    maker_address: order.maker,
    market: order.market,
    asset_id: order.assetId,
    side: order.side === Side.BUY ? 'BUY' : 'SELL',
    original_size: formatUnits(order.size),
    size_matched: formatUnits(order.matched),
    price: formatPrice(order.price, market.ticksPerUnit),
    outcome: market.outcomes[order.token],
    expiration: String(order.orderType === OrderType.GTD ? Math.floor(order.expiresAt / 1000) : 0),
    order_type: TYPE_NAMES[order.orderType],
    associate_trades: order.tradeIds,
    created_at: Math.floor(order.createdAt / 1000),
  };
}

/** Every order id pmx issues: the order's EIP-712 hash. */
const ORDER_ID = /^0x[0-9a-f]{64}$/;

/**
 * An order id as pmx writes it (`0x` and 64 lower-case hex digits) whatever case the client sent:
 * a bot that upper-cases hex is not told its live order "can't be found". Anything else stays as sent
 * (and is found nowhere).
 */
function orderIdOf(id: string): string {
  const lower = id.toLowerCase();
  return ORDER_ID.test(lower) ? lower : id;
}

/** Order ids from a cancel body: {orderID} / {orderId}, or an array of ids. */
function idsFrom(body: unknown, many: boolean): string[] {
  if (many) {
    if (!Array.isArray(body) || body.some((id) => typeof id !== 'string'))
      throw new HttpError(400, 'the body must be an array of order ids');
    if (body.length > MAX_CANCEL)
      throw new HttpError(400, `Too many orders in payload: ${body.length}, max allowed: ${MAX_CANCEL}`);
    return (body as string[]).map(orderIdOf);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'the body must be {"orderID": "0x…"}');
  const record = body as Record<string, unknown>;
  const id = record.orderID ?? record.orderId;
  if (typeof id !== 'string' || id === '') throw new HttpError(400, 'orderID is required');
  for (const key of Object.keys(record))
    if (key !== 'orderID' && key !== 'orderId') throw new HttpError(400, `unknown field ${key}`);
  return [orderIdOf(id)];
}

/** A market filter as the registry spells the condition id, so a client's case does not matter. */
function conditionIdOf(market: string | undefined, markets: MarketRegistry): string | undefined {
  return market === undefined ? undefined : (markets.get(market)?.conditionId ?? market);
}

/**
 * `before`: level-2 auth.
 * `whole`: refuses (425) while any shard recovers, when a key's open orders are not all known
 * yet: cancels and order reads must not answer "not found" for an order that will rest.
 * `fromLedger`: an API key's order that is neither open nor recently closed (ledger-order.ts).
 */
export function orderRoutes(
  service: GatewayOrders,
  markets: MarketRegistry,
  before: Hook<ApiKeyLocals>[],
  whole: Hook<ApiKeyLocals>,
  fromLedger: (orderId: string, ownerKey: string) => Promise<LedgerOrder | undefined>,
): Route<ApiKeyLocals>[] {
  const key = (ctx: RequestContext<ApiKeyLocals>) => ctx.locals.apiKey!;
  const known = [...before, whole];
  return [
    {
      method: 'POST',
      path: '/order',
      options: { before },
      handler: async (ctx) => {
        try {
          return { body: await service.place(parseOrderEnvelope(ctx.json(), markets), key(ctx)) };
        } catch (error) {
          asUserError(error);
        }
      },
    },
    {
      method: 'POST',
      path: '/orders',
      options: { before },
      handler: async (ctx) => {
        const body = ctx.json();
        if (!Array.isArray(body))
          throw new HttpError(400, 'Invalid order payload: the body must be an array of orders');
        if (body.length > MAX_BATCH)
          throw new HttpError(400, `Too many orders in payload: ${body.length}, max allowed: ${MAX_BATCH}`);
        return {
          body: await placeEach(body, (envelope) => service.place(parseOrderEnvelope(envelope, markets), key(ctx))),
        };
      },
    },
    {
      method: 'DELETE',
      path: '/order',
      options: { before: known },
      handler: async (ctx) => ({ body: await service.cancel(key(ctx), idsFrom(ctx.json(), false)) }),
    },
    {
      method: 'DELETE',
      path: '/orders',
      options: { before: known },
      handler: async (ctx) => ({ body: await service.cancel(key(ctx), idsFrom(ctx.json(), true)) }),
    },
    {
      method: 'DELETE',
      path: '/cancel-all',
      options: { before: known },
      handler: async (ctx) => ({ body: await service.cancelAll(key(ctx)) }),
    },
    {
      method: 'DELETE',
      path: '/cancel-market-orders',
      options: { before: known },
      handler: async (ctx) => {
        const body = ctx.rawBody.length === 0 ? {} : ctx.json();
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw new HttpError(400, 'the body must be {"market"?: …, "asset_id"?: …}');
        const { market, asset_id: assetId, ...rest } = body as Record<string, unknown>;
        if (Object.keys(rest).length > 0) throw new HttpError(400, `unknown field ${Object.keys(rest)[0]}`);
        if (
          (market !== undefined && typeof market !== 'string') ||
          (assetId !== undefined && typeof assetId !== 'string')
        ) {
          throw new HttpError(400, 'market and asset_id must be strings');
        }
        // Neither filter: every open order of the key, as the real service documents.
        return {
          body: await service.cancelAll(key(ctx), {
            market: conditionIdOf(market as string | undefined, markets),
            assetId: assetId as string | undefined,
          }),
        };
      },
    },
    {
      method: 'GET',
      path: '/data/orders',
      options: { before: known },
      handler: async (ctx) => {
        const {
          id: namedId,
          market: named,
          asset_id: assetId,
        } = Object.fromEntries(ctx.query) as Record<string, string | undefined>;
        const id = namedId === undefined ? undefined : orderIdOf(namedId);
        const market = conditionIdOf(named, markets);
        const mine = (await service.openOrders(key(ctx).apiKey)).filter(
          (o) =>
            (id === undefined || o.orderId === id) &&
            (market === undefined || o.market === market) &&
            (assetId === undefined || o.assetId === assetId),
        );
        const page = seqCursorPage(mine, ctx.query.get('next_cursor'), ORDER_PAGE);
        return { body: { ...page, data: page.data.map((o) => wireOrder(o, markets)) } };
      },
    },
    {
      method: 'GET',
      path: '/data/order/:id',
      options: { before: known },
      handler: async (ctx) => {
        const id = orderIdOf(ctx.params.id ?? '');
        // No order has another form of id: nothing to look up.
        if (!ORDER_ID.test(id)) throw new HttpError(404, 'order not found');
        const owner = key(ctx).apiKey;
        // Open or recently closed, the core has it; else the ledger (another key's order is looked
        // up there like an unknown id, so how long the 404 takes tells a stranger nothing).
        const closed = (await service.order(owner, id)) ?? (await fromLedger(id, owner));
        if (closed === undefined || markets.get(closed.market) === undefined)
          throw new HttpError(404, 'order not found');
        return { body: wireOrder(closed, markets, closed.status) };
      },
    },
  ];
}
