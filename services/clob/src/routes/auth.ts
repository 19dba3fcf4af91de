// API keys: create and derive with a wallet signature (level 1), list and delete with the key
// itself (level 2).

import { OutcomeUnknown } from '@pmx/db';
import { HttpError, type Hook, type Route } from '@pmx/http';
import type { ApiKeyRecord, ApiKeyStore } from '@pmx/auth';
import type { ApiKeyLocals, WalletLocals } from '@pmx/auth';
import { logger } from '@pmx/config';

const credentials = (record: ApiKeyRecord) => ({
  apiKey: record.apiKey,
  secret: record.secret,
  passphrase: record.passphrase,
});

/**
 * What a key's deletion does besides: the trading front end checks it can (`before` throws to
 * refuse), then, with the key already refused to new orders and its row still in place, closes
 * the key's open orders (`clear`, which throws when any is left: the key is given back, and its
 * owner retries), and once the row is gone stops what else ran for it (`after`). Nothing could
 * cancel a deleted key's orders, so the row goes last: a crash in between leaves a key that works.
 */
export interface KeyDeletion {
  before(apiKey: string): void;
  clear(apiKey: string): Promise<void>;
  after(apiKey: string): void | Promise<void>;
  /** The deletion failed after `clear`: the key works again. */
  failed?(apiKey: string): void | Promise<void>;
}

export function authRoutes(
  store: ApiKeyStore,
  wallet: Hook<WalletLocals>,
  apiKey: Hook<ApiKeyLocals>,
  deletion?: KeyDeletion,
): Route<any>[] {
  const walletRoutes: Route<WalletLocals>[] = [
    {
      method: 'POST',
      path: '/auth/api-key',
      options: { before: [wallet] },
      handler: async (ctx) => {
        const created = await store.create(ctx.locals.address!, ctx.locals.nonce!);
        if (created === 'exists')
          throw new HttpError(
            400,
            'Could not create api key: one exists for this address and nonce (use GET /auth/derive-api-key)',
          );
        return { body: credentials(created) };
      },
    },
    {
      method: 'GET',
      path: '/auth/derive-api-key',
      options: { before: [wallet] },
      handler: async (ctx) => {
        const found = await store.derive(ctx.locals.address!, ctx.locals.nonce!);
        if (found === undefined)
          throw new HttpError(
            400,
            'Could not derive api key: none exists for this address and nonce (use POST /auth/api-key)',
          );
        return { body: credentials(found) };
      },
    },
  ];
  const keyRoutes: Route<ApiKeyLocals>[] = [
    // The official client's getClosedOnlyMode: no account is restricted to closing positions here.
    {
      method: 'GET',
      path: '/auth/ban-status/closed-only',
      options: { before: [apiKey] },
      handler: () => ({ body: { closed_only: false } }),
    },
    {
      method: 'GET',
      path: '/auth/api-keys',
      options: { before: [apiKey] },
      handler: async (ctx) => ({ body: { apiKeys: await store.listFor(ctx.locals.apiKey!.address) } }),
    },
    {
      method: 'DELETE',
      path: '/auth/api-key',
      options: { before: [apiKey] },
      handler: async (ctx) => {
        const key = ctx.locals.apiKey!.apiKey;
        deletion?.before(key);
        try {
          await store.delete(key, deletion === undefined ? undefined : () => deletion.clear(key));
        } catch (error) {
          if (!(error instanceof OutcomeUnknown)) await deletion?.failed?.(key);
          if (error instanceof HttpError) throw error;
          if (error instanceof OutcomeUnknown) {
            throw new HttpError(
              503,
              'the API key may or may not be deleted (Postgres did not answer in time); it no longer works here: send the delete again to settle it',
            );
          }
          // The store gave the key back: it still works, with the orders `clear` left; try again.
          logger('clob').error({ err: error }, `DELETE /auth/api-key: deleting ${key} failed`);
          throw new HttpError(
            503,
            'the API key could not be deleted (the key store is unavailable); it still works: retry shortly',
          );
        }
        await deletion?.after(key);
        return { body: 'OK' };
      },
    },
  ];
  return [...walletRoutes, ...keyRoutes];
}
