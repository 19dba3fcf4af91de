// API keys: create and derive with a wallet signature (level 1), list and delete with the key
// itself (level 2).

import { HttpError, type Hook, type Route } from '@pmx/http';
import type { ApiKeyRecord, ApiKeyStore } from '@pmx/auth';
import type { ApiKeyLocals, WalletLocals } from '@pmx/auth';

const credentials = (record: ApiKeyRecord) => ({ apiKey: record.apiKey, secret: record.secret, passphrase: record.passphrase });

/**
 * What a key's deletion does besides: the trading front end checks it can (`before` throws to
 * refuse) and then cancels the key's open orders (`after`, before the answer), since nothing
 * could cancel them once the key is gone.
 */
export interface KeyDeletion {
  before(apiKey: string): void;
  after(apiKey: string): Promise<void>;
}

export function authRoutes(store: ApiKeyStore, wallet: Hook<WalletLocals>, apiKey: Hook<ApiKeyLocals>, deletion?: KeyDeletion): Route<any>[] {
  const walletRoutes: Route<WalletLocals>[] = [
    {
      method: 'POST',
      path: '/auth/api-key',
      options: { before: [wallet] },
      handler: async (ctx) => {
        const created = await store.create(ctx.locals.address!, ctx.locals.nonce!);
        if (created === 'exists') throw new HttpError(400, 'Could not create api key: one exists for this address and nonce (use GET /auth/derive-api-key)');
        return { body: credentials(created) };
      },
    },
    {
      method: 'GET',
      path: '/auth/derive-api-key',
      options: { before: [wallet] },
      handler: async (ctx) => {
        const found = await store.derive(ctx.locals.address!, ctx.locals.nonce!);
        if (found === undefined) throw new HttpError(400, 'Could not derive api key: none exists for this address and nonce (use POST /auth/api-key)');
        return { body: credentials(found) };
      },
    },
  ];
  const keyRoutes: Route<ApiKeyLocals>[] = [
    // The official client's getClosedOnlyMode: no account is restricted to closing positions here.
    { method: 'GET', path: '/auth/ban-status/closed-only', options: { before: [apiKey] }, handler: () => ({ body: { closed_only: false } }) },
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
          await store.delete(key);
        } catch (error) {
          // The store gave the key back: it still works, its orders are untouched; try again.
          console.error(`[clob] DELETE /auth/api-key: deleting ${key} failed:`, error);
          throw new HttpError(503, 'the API key could not be deleted (the key store is unavailable); it still works: retry shortly');
        }
        await deletion?.after(key);
        return { body: 'OK' };
      },
    },
  ];
  return [...walletRoutes, ...keyRoutes];
}
