// A first trade, as a market maker's bot makes it with the official client: two wallets derive
// their API keys, the seller rests a SELL, the buyer crosses it, and both read the book and the
// trade. Run `pnpm --filter @pmx/examples first-trade [--token <id>]` against a running pmx (README).
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClobClient, OrderType, Side, type ApiKeyCreds, type Trade } from '@polymarket/clob-client-v2';
import { createWalletClient, custom, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { exampleConfig } from './config.ts';
import { renamePolyHeaders } from './svc-headers.ts';

// Two well-known development keys (the first two of Hardhat's and Anvil's test accounts). Custody
// is off-chain, so they hold only what the operator funds them with on this exchange.
const BUYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const SELLER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const CHAIN_ID = 137;
const PRICE = 0.6;
const SIZE = 10;
/** How long to wait for the trade to reach the ledger (ingest writes it within a second or so). */
const LEDGER_WAIT_MS = 15_000;

/** A viem wallet that signs locally: pmx needs signatures, never a chain RPC. */
function wallet(privateKey: Hex) {
  const account = privateKeyToAccount(privateKey);
  const transport = custom({
    request: async () => {
      throw new Error('no RPC: the account signs locally');
    },
  });
  return createWalletClient({ account, transport });
}

/** Level 1: the wallet's signature makes (or, on a later run, finds) its API key. */
async function connect(host: string, privateKey: Hex): Promise<{ client: ClobClient; address: string }> {
  const signer = wallet(privateKey);
  // Without throwOnError a refused create (the key exists) makes the client derive the key instead.
  const creds: ApiKeyCreds = await new ClobClient({ host, chain: CHAIN_ID, signer }).createOrDeriveApiKey();
  if (!creds.key) throw new Error(`no API key for ${signer.account.address}: is pmx running at ${host}?`);
  return {
    client: new ClobClient({ host, chain: CHAIN_ID, signer, creds, throwOnError: true }),
    address: signer.account.address,
  };
}

/** The trade as the buyer's ledger shows it, once ingest has written it (MATCHED before, CONFIRMED then). */
async function tradeFromLedger(client: ClobClient, tradeId: string): Promise<Trade> {
  const deadline = Date.now() + LEDGER_WAIT_MS;
  for (;;) {
    const [trade] = await client.getTrades({ id: tradeId });
    if (trade?.status === 'CONFIRMED') return trade;
    if (Date.now() > deadline) throw new Error(`trade ${tradeId} is not in the ledger after ${LEDGER_WAIT_MS} ms`);
    await sleep(250);
  }
}

async function firstTrade(host: string, token: string): Promise<void> {
  const seller = await connect(host, SELLER_KEY);
  const buyer = await connect(host, BUYER_KEY);
  console.log(`seller ${seller.address}, buyer ${buyer.address}: API keys ready`);

  const ask = await seller.client.createAndPostOrder(
    { tokenID: token, price: PRICE, size: SIZE, side: Side.SELL },
    undefined,
    OrderType.GTC,
  );
  console.log(`seller: SELL ${SIZE} @ ${PRICE} → ${ask.status} (order ${ask.orderID})`);
  const bid = await buyer.client.createAndPostOrder(
    { tokenID: token, price: PRICE, size: SIZE, side: Side.BUY },
    undefined,
    OrderType.GTC,
  );
  console.log(
    `buyer:  BUY ${SIZE} @ ${PRICE} → ${bid.status}: paid ${bid.makingAmount} USDC for ${bid.takingAmount} tokens`,
  );
  if (!bid.success || bid.tradeIDs === undefined || bid.tradeIDs.length === 0)
    throw new Error(`the BUY did not trade: ${JSON.stringify(bid)}`);

  const book = await buyer.client.getOrderBook(token);
  console.log(`book of ${token}: ${JSON.stringify({ bids: book.bids, asks: book.asks, last: book.last_trade_price })}`);
  const trade = await tradeFromLedger(buyer.client, bid.tradeIDs[0]!);
  const { id, side, size, price, status, trader_side } = trade as Trade & { trader_side?: string };
  console.log(`trade: ${JSON.stringify({ id, side, size, price, status, trader_side })}`);
}

const { values } = parseArgs({ options: { token: { type: 'string', default: '1001' } } });
const stopRenaming = renamePolyHeaders();
try {
  await firstTrade(exampleConfig.clobUrl, values.token);
} finally {
  stopRenaming();
}
