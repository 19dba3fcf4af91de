// Pre-signed traffic for the trading bench: traders with API keys, and many distinct signed
// orders (EIP-712 digest from @pmx/signing, signed with libsecp256k1: 100,000 orders in seconds
// rather than a minute with pure JS) with their L2 headers, made before the clock starts so
// signing is not measured as server work. `assertSignsCorrectly` checks the path once per run.

import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  CLOB_AUTH_EIP712_TYPES,
  createOrderHasher,
  DEFAULT_CHAIN_ID as CHAIN_ID,
  DEFAULT_EXCHANGE as EXCHANGE,
  orderId,
  recoverAddress,
  signL2,
} from '@pmx/signing';
import { privateKeyToAccount } from 'viem/accounts';

export { DEFAULT_CHAIN_ID as CHAIN_ID, DEFAULT_EXCHANGE as EXCHANGE } from '@pmx/signing';
const ZERO32 = `0x${'0'.repeat(64)}`;

export interface BenchTrader {
  privateKey: Uint8Array;
  address: string;
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface PreparedRequest {
  path: string;
  body: string;
  headers: Record<string, string>;
}

/** A fresh wallet and its level-1 headers (ClobAuth signed for nonce 0, now). */
export async function walletWithL1Headers(
  privateKey: Uint8Array = randomBytes(32),
): Promise<{ privateKey: Uint8Array; address: string; headers: Record<string, string> }> {
  const account = privateKeyToAccount(`0x${Buffer.from(privateKey).toString('hex')}`);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = await account.signTypedData({
    domain: { name: 'ClobAuthDomain', version: '1', chainId: CHAIN_ID },
    types: CLOB_AUTH_EIP712_TYPES,
    primaryType: 'ClobAuth',
    message: {
      address: account.address,
      timestamp,
      nonce: 0n,
      message: 'This message attests that I control the given wallet',
    },
  });
  return {
    privateKey,
    address: account.address,
    headers: { SVC_ADDRESS: account.address, SVC_SIGNATURE: signature, SVC_TIMESTAMP: timestamp, SVC_NONCE: '0' },
  };
}

/** Header names as a service's direct port takes them: uWS drops names with '_' (the edge renames them). */
export const dashed = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.replaceAll('_', '-'), v]));

/** The same requests with their header names dashed, for a direct port. */
export const hyphenated = (requests: PreparedRequest[]): PreparedRequest[] =>
  requests.map((r) => ({ ...r, headers: dashed(r.headers) }));

/** A wallet with an API key: `SVC_X` names through the edge, dashed ones at a direct port. */
export async function makeTrader(baseUrl: string, at: 'edge' | 'direct' = 'edge'): Promise<BenchTrader> {
  const { privateKey, address, headers } = await walletWithL1Headers();
  const sent = at === 'direct' ? dashed(headers) : headers;
  const response = await fetch(`${baseUrl}/auth/api-key`, { method: 'POST', headers: sent });
  if (!response.ok) throw new Error(`api key: ${response.status} ${await response.text()}`);
  const creds = (await response.json()) as { apiKey: string; secret: string; passphrase: string };
  return { privateKey, address, ...creds };
}

const native = createRequire(import.meta.url)('secp256k1') as {
  ecdsaSign(msg32: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number };
};
const hasher = createOrderHasher({ chainId: CHAIN_ID, verifyingContract: EXCHANGE });

/** What an order says, in base units: the maker gives `makerAmount` and takes `takerAmount`. */
export interface OrderAmounts {
  tokenId: string;
  side: 'BUY' | 'SELL';
  makerAmount: bigint;
  takerAmount: bigint;
  orderType?: string;
  postOnly?: boolean;
  /** The order's own timestamp in ms (default: now). */
  timestamp?: number;
}

/**
 * One signed order envelope on the fast path (native secp256k1 over @pmx/signing's digest), and
 * its id (the digest, as the exchange names the order).
 */
export function signAmounts(
  trader: Pick<BenchTrader, 'privateKey' | 'address' | 'apiKey'>,
  spec: OrderAmounts,
): { envelope: Record<string, unknown>; orderId: string } {
  const fields = {
    salt: String(BigInt(`0x${randomBytes(6).toString('hex')}`)),
    maker: trader.address,
    signer: trader.address,
    tokenId: spec.tokenId,
    makerAmount: String(spec.makerAmount),
    takerAmount: String(spec.takerAmount),
    side: spec.side,
    signatureType: 0,
    timestamp: String(spec.timestamp ?? Date.now()),
    metadata: ZERO32,
    builder: ZERO32,
  } as const;
  const digest = hasher.hashOrder(fields);
  const signed = native.ecdsaSign(digest, trader.privateKey);
  const signature = `0x${Buffer.from(signed.signature).toString('hex')}${(27 + signed.recid).toString(16)}`;
  const envelope = {
    order: { ...fields, salt: Number(fields.salt), expiration: '0', signature },
    owner: trader.apiKey,
    orderType: spec.orderType ?? 'GTC',
    ...(spec.postOnly === undefined ? {} : { postOnly: spec.postOnly }),
  };
  return { envelope, orderId: orderId(digest) };
}

/** One signed order envelope: BUY or SELL `size` tokens at `priceCents` of a 0.01-tick market. */
export function signOrder(
  trader: BenchTrader,
  tokenId: string,
  side: 'BUY' | 'SELL',
  priceCents: number,
  sizeTokens: number,
  orderType = 'GTC',
  timestamp = Date.now(),
): Record<string, unknown> {
  const size = BigInt(sizeTokens) * 1_000_000n;
  const collateral = (size * BigInt(priceCents)) / 100n;
  return signAmounts(trader, {
    tokenId,
    side,
    makerAmount: side === 'BUY' ? collateral : size,
    takerAmount: side === 'BUY' ? size : collateral,
    orderType,
    timestamp,
  }).envelope;
}

/** Checks the fast signing path against the server's recovery once, before a run. */
export function assertSignsCorrectly(trader: BenchTrader, tokenId: string): void {
  const envelope = signOrder(trader, tokenId, 'BUY', 50, 10) as { order: Record<string, string> };
  const digest = hasher.hashOrder(envelope.order as never);
  const signer = recoverAddress(digest, envelope.order.signature!);
  if (signer?.toLowerCase() !== trader.address.toLowerCase())
    throw new Error('bench signing path does not recover to the trader');
}

export function authedRequest(
  trader: BenchTrader,
  method: string,
  path: string,
  payload: unknown,
  timestamp: number,
): PreparedRequest {
  const body = JSON.stringify(payload);
  return {
    path,
    body,
    headers: {
      'content-type': 'application/json',
      SVC_ADDRESS: trader.address,
      SVC_API_KEY: trader.apiKey,
      SVC_PASSPHRASE: trader.passphrase,
      SVC_TIMESTAMP: String(timestamp),
      SVC_SIGNATURE: signL2(trader.secret, timestamp, method, path, body),
    },
  };
}

/** Each trader only buys or only sells (so no order of theirs meets their own): by index. */
const sideOf = (trader: number): 'BUY' | 'SELL' => ((trader >> 1) % 2 === 0 ? 'BUY' : 'SELL');

/** Distinct orders around the middle: about half cross, from traders funded for all of them. */
export function orders(
  traders: BenchTrader[],
  tokenId: string,
  count: number,
  timestamp?: number,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const t = i % traders.length;
    out.push(signOrder(traders[t]!, tokenId, sideOf(t), 45 + ((i * 7) % 11), 10, 'GTC', timestamp));
  }
  return out;
}

/**
 * `POST /orders` requests of 15 orders each, every batch signed and sent by one trader: the
 * server refuses an order whose signer is not the API key's address. (With a batch's orders from
 * all eight traders, 13 of every 15 would be refused, and counted as placed.)
 */
export function batchRequests(
  traders: BenchTrader[],
  tokenId: string,
  count: number,
  timestamp: number,
): PreparedRequest[] {
  const out: PreparedRequest[] = [];
  for (let b = 0; b < count; b++) {
    const t = b % traders.length;
    const batch = Array.from({ length: 15 }, (_, k) =>
      signOrder(traders[t]!, tokenId, sideOf(t), 45 + ((b + k * 7) % 11), 10),
    );
    out.push(authedRequest(traders[t]!, 'POST', '/orders', batch, timestamp));
  }
  return out;
}
