// Authentication for the catalog's writes: level 2 (API key + HMAC of the raw request, as the
// trading front end checks it; the keys are the clob's, read from its api_keys table) for
// POST /comments, and the operator's bearer token for the operator API. A failure is a 401.
// The level-2 check mirrors services/clob/src/auth/auth-hooks.ts `apiKeyAuth`; the two should
// move into one package (see docs/catalog.md). Keys are read per write, not cached, so a key
// deleted at the clob stops working here at once.

import { timingSafeEqual } from 'node:crypto';
import type { Sql } from '@pmx/db';
import { HttpError, type Hook, type RequestContext } from '@pmx/http';
import { verifyL2 } from '@pmx/signing';

export interface AuthorLocals {
  /** Lower-case address of the authenticated API key. */
  address?: string;
}

const API_KEY = /^[0-9a-fA-F-]{36}$/;

function required(ctx: RequestContext<any>, name: string): string {
  const value = ctx.header(name);
  if (value === undefined || value === '') throw new HttpError(401, `missing header ${name}`);
  return value;
}

/** Level 2: SVC_ADDRESS, SVC_API_KEY, SVC_PASSPHRASE, SVC_TIMESTAMP, SVC_SIGNATURE (also as SVC-…). */
export function apiKeyAuth(sql: Sql, options: { windowSeconds: number; now?: () => number }): Hook<AuthorLocals> {
  const now = options.now ?? Date.now;
  return async (ctx) => {
    const address = required(ctx, 'SVC_ADDRESS');
    const key = required(ctx, 'SVC_API_KEY');
    const passphrase = required(ctx, 'SVC_PASSPHRASE');
    const signature = required(ctx, 'SVC_SIGNATURE');
    const timestamp = required(ctx, 'SVC_TIMESTAMP');
    if (!/^\d{1,12}$/.test(timestamp)) throw new HttpError(401, 'SVC_TIMESTAMP must be Unix seconds');
    if (Math.abs(Number(timestamp) - Math.floor(now() / 1000)) > options.windowSeconds) {
      throw new HttpError(401, `SVC_TIMESTAMP is more than ${options.windowSeconds} s from the server time`);
    }
    if (!API_KEY.test(key)) throw new HttpError(401, 'Unauthorized/Invalid api key');
    const [record] = await sql<{ address: string; secret: string; passphrase: string }[]>`
      SELECT address, secret, passphrase FROM api_keys WHERE api_key = ${key}`;
    if (record === undefined) throw new HttpError(401, 'Unauthorized/Invalid api key');
    if (!sameText(record.passphrase, passphrase)) throw new HttpError(401, 'SVC_PASSPHRASE does not match the API key');
    if (address.toLowerCase() !== record.address) throw new HttpError(401, 'SVC_ADDRESS is not the address of the API key');
    const request = { timestamp, method: ctx.method, path: ctx.path, body: ctx.rawBody };
    if (!verifyL2(record.secret, request, signature)) throw new HttpError(401, 'SVC_SIGNATURE does not match the request');
    ctx.locals.address = record.address;
  };
}

/** Operator API: `Authorization: Bearer <PMX_OPERATOR_KEY>`. */
export function operatorAuth(operatorKey: string): Hook<object> {
  return (ctx) => {
    const header = ctx.header('authorization') ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (token === '' || !sameText(token, operatorKey)) throw new HttpError(401, 'operator key required (Authorization: Bearer …)');
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
