// The authentication hooks the HTTP layer runs before handlers: level 1 (a wallet's ClobAuth
// signature), level 2 (API key + HMAC of the raw request) and the operator's bearer token.
// Each failure is a 401 in the simple shape that names the check that failed.
// Header names: the contract's SVC_X (rewritten to SVC-X by the header-normalising front) and SVC-X
// are both read (docs/design/auth.md).

import { timingSafeEqual } from 'node:crypto';
import { HttpError, type Hook, type RequestContext } from '@pmx/http';
import { parseL2Signature, verifyClobAuth, verifyL2 } from '@pmx/signing';
import type { ApiKeyRecord, ApiKeyStore } from './api-key-store.ts';

export interface WalletLocals {
  address?: string;
  nonce?: string;
}

export interface ApiKeyLocals {
  apiKey?: ApiKeyRecord;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The largest level-1 nonce (the ClobAuth struct's uint256). */
const MAX_UINT256 = (1n << 256n) - 1n;

function required(ctx: RequestContext<any>, name: string): string {
  const value = ctx.header(name);
  if (value === undefined || value === '') throw new HttpError(401, `missing header ${name}`);
  // Repeated headers (or both spellings, SVC_X and SVC-X) arrive joined with ", "; no auth value
  // holds a comma, and naming the repeat beats "must be Unix seconds" for "123, 123".
  if (value.includes(',')) throw new HttpError(401, `${name} sent more than once`);
  return value;
}

function freshTimestamp(ctx: RequestContext<any>, windowSeconds: number, now: () => number): string {
  const timestamp = required(ctx, 'SVC_TIMESTAMP');
  if (!/^\d{1,12}$/.test(timestamp)) throw new HttpError(401, 'SVC_TIMESTAMP must be Unix seconds');
  if (Math.abs(Number(timestamp) - Math.floor(now() / 1000)) > windowSeconds) {
    throw new HttpError(401, `SVC_TIMESTAMP is more than ${windowSeconds} s from the server time`);
  }
  return timestamp;
}

export interface AuthOptions {
  /** How far SVC_TIMESTAMP may be from the server clock, in seconds. */
  windowSeconds: number;
  now?: () => number;
}

/** Level 1: SVC_ADDRESS, SVC_SIGNATURE, SVC_TIMESTAMP, SVC_NONCE (default 0). */
export function walletAuth(options: AuthOptions & { chainId: number }): Hook<WalletLocals> {
  const now = options.now ?? Date.now;
  return (ctx) => {
    const address = required(ctx, 'SVC_ADDRESS');
    if (!ADDRESS.test(address)) throw new HttpError(401, 'SVC_ADDRESS is not an address');
    const signature = required(ctx, 'SVC_SIGNATURE');
    const timestamp = freshTimestamp(ctx, options.windowSeconds, now);
    const nonce = ctx.header('SVC_NONCE') || '0';
    if (!/^\d{1,78}$/.test(nonce)) throw new HttpError(401, 'SVC_NONCE must be a non-negative integer');
    if (BigInt(nonce) > MAX_UINT256) throw new HttpError(401, 'SVC_NONCE must be at most 2^256 - 1 (a uint256)');
    let valid: boolean;
    try {
      valid = verifyClobAuth({ address, timestamp, nonce, chainId: options.chainId, signature });
    } catch {
      valid = false;
    }
    if (!valid) throw new HttpError(401, 'Invalid L1 Request headers: the signature does not match SVC_ADDRESS');
    ctx.locals.address = address.toLowerCase();
    ctx.locals.nonce = nonce;
  };
}

/** Level 2: the five SVC_ headers, the HMAC over timestamp + method + path + raw body. */
export function apiKeyAuth(store: ApiKeyStore, options: AuthOptions): Hook<ApiKeyLocals> {
  const now = options.now ?? Date.now;
  return async (ctx) => {
    const address = required(ctx, 'SVC_ADDRESS');
    const key = required(ctx, 'SVC_API_KEY');
    const passphrase = required(ctx, 'SVC_PASSPHRASE');
    const signature = required(ctx, 'SVC_SIGNATURE');
    const timestamp = freshTimestamp(ctx, options.windowSeconds, now);
    const record = await store.lookup(key);
    if (record === undefined) throw new HttpError(401, 'Unauthorized/Invalid api key');
    if (!sameText(record.passphrase, passphrase)) throw new HttpError(401, 'SVC_PASSPHRASE does not match the API key');
    if (address.toLowerCase() !== record.address)
      throw new HttpError(401, 'SVC_ADDRESS is not the address of the API key');
    const request = { timestamp, method: ctx.method, path: ctx.path, body: ctx.rawBody };
    const provided = parseL2Signature(signature);
    if (provided === undefined)
      throw new HttpError(
        401,
        'SVC_SIGNATURE must be the HMAC-SHA256 as 64 hex digits or as base64 (URL-safe or standard)',
      );
    if (!verifyL2(record.secret, request, provided))
      throw new HttpError(401, 'SVC_SIGNATURE does not match the request');
    ctx.locals.apiKey = record;
  };
}

/** Operator API: `Authorization: Bearer <PMX_OPERATOR_KEY>`. */
export function operatorAuth(operatorKey: string): Hook<object> {
  return (ctx) => {
    const header = ctx.header('authorization') ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (token === '') throw new HttpError(401, 'operator key required (Authorization: Bearer …)');
    if (!sameText(token, operatorKey))
      throw new HttpError(401, 'wrong operator key (the server reads PMX_OPERATOR_KEY)');
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
