// POST /split, /merge, /redeem (level 2, the trading headers): a user's custody movements in a
// market, in base units as decimal strings like orders (docs/reference/custody.md). Each answers
// what moved and the holder's balances after it, as GET /balance-allowance shows them. POST
// /convert (neg-risk conversion) is refused: pmx does not support it.

import { HttpError, type Hook, type Route } from '@pmx/http';
import type { ApiKeyLocals } from '@pmx/auth';
import { COLLATERAL } from '@pmx/risk';
import type { MarketRecord, MarketRegistry } from '../markets/market-registry.ts';
import type { CustodyOp } from '@pmx/events';
import type { Balance } from '@pmx/risk';
import { balanceAllowance, holderOf, type HolderBalances } from './balances.ts';

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;
const BASE_UNITS = /^[1-9][0-9]{0,15}$/;

interface CustodyRequest {
  market: MarketRecord;
  amount: number;
  signatureType: string | null;
}

function parse(raw: unknown, markets: MarketRegistry, withAmount: boolean): CustodyRequest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new HttpError(400, 'the body must be a JSON object');
  const body = raw as Record<string, unknown>;
  const allowed = withAmount ? ['market', 'amount', 'signature_type'] : ['market', 'signature_type'];
  for (const key of Object.keys(body)) if (!allowed.includes(key)) throw new HttpError(400, `unknown field ${key}`);
  if (typeof body.market !== 'string' || !CONDITION_ID.test(body.market))
    throw new HttpError(400, 'market must be the condition id (0x and 64 hex digits)');
  const market = markets.get(body.market);
  if (market === undefined) throw new HttpError(404, 'market not found');
  let amount = 0;
  if (withAmount) {
    amount = typeof body.amount === 'string' && BASE_UNITS.test(body.amount) ? Number(body.amount) : NaN;
    if (!Number.isSafeInteger(amount))
      throw new HttpError(400, 'amount must be a positive integer of base units (6 decimals), as a string');
  }
  const type = body.signature_type;
  if (type !== undefined && type !== 0 && type !== 1 && type !== 2)
    throw new HttpError(400, 'signature_type must be 0, 1 or 2');
  return { market, amount, signatureType: type === undefined ? null : String(type) };
}

/** What a movement moved (base units) and the holder's balances right after it. */
export interface CustodyMoved {
  collateral: number;
  tokens: [number, number];
  balances: Record<string, Balance>;
}

/** Carries out a movement in the core (risk/custody.ts there); refusals are HTTP errors. */
export type CustodyMove = (
  op: CustodyOp,
  address: string,
  market: MarketRecord,
  amount: number,
) => Promise<CustodyMoved>;

export function custodyRoutes(
  move: CustodyMove,
  { markets, exchanges, proxyOf }: Pick<HolderBalances, 'markets' | 'exchanges' | 'proxyOf'>,
  before: Hook<ApiKeyLocals>[],
): Route<ApiKeyLocals>[] {
  const holder = holderOf(proxyOf);
  const receipt = (market: MarketRecord, moved: CustodyMoved) => ({
    market: market.conditionId,
    collateral: String(moved.collateral),
    tokens: Object.fromEntries(market.tokens.map((token, i) => [token, String(moved.tokens[i])])),
    balances: Object.fromEntries(
      [COLLATERAL, ...market.tokens].map((asset) => [
        asset,
        balanceAllowance(moved.balances[asset] ?? { total: 0, reserved: 0, available: 0 }, exchanges),
      ]),
    ),
  });
  const route = (path: string, op: CustodyOp): Route<ApiKeyLocals> => ({
    method: 'POST',
    path,
    options: { before },
    handler: async (ctx) => {
      const request = parse(ctx.json(), markets, op !== 'redeem');
      const address = holder(ctx.locals.apiKey!.address, request.signatureType);
      return { body: receipt(request.market, await move(op, address, request.market, request.amount)) };
    },
  });
  return [
    route('/split', 'split'),
    route('/merge', 'merge'),
    route('/redeem', 'redeem'),
    {
      method: 'POST',
      path: '/convert',
      options: { before },
      handler: () => {
        throw new HttpError(
          400,
          'converting positions between the outcomes of a neg-risk event is not supported: split, merge and redeem each market instead',
        );
      },
    },
  ];
}
