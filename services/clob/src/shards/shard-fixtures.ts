// Test-only: commands for a ShardHost in tests — one market (0xc1, tokens 111 and 222, tick 0.01,
// minimum 5) and a GTC BUY of 10 at 0.50 whose fields a test overrides.
import { OrderType, Side } from '@pmx/matching';
import type { ShardCommand } from '@pmx/events';

export const TOKEN = 1_000_000;
export const market: ShardCommand = {
  type: 'market',
  market: { key: '0xc1', tokens: ['111', '222'], tickSize: '0.01', minSize: 5 * TOKEN },
};

export function place(
  orderId: string,
  owner: string,
  fields: Partial<Extract<ShardCommand, { type: 'place' }>> = {},
): ShardCommand {
  return {
    type: 'place',
    orderId,
    ownerKey: 'key',
    builder: '0x0',
    signedAt: 0,
    owner,
    market: '0xc1',
    token: 0,
    side: Side.BUY,
    orderType: OrderType.GTC,
    price: 50,
    size: 10 * TOKEN,
    postOnly: false,
    expiresAt: 0,
    ...fields,
  };
}
