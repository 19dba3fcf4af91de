// Public surface of @pmx/auth.
export { ApiKeyStore, type ApiKeyRecord, type ApiKeyStoreOptions } from './api-key-store.ts';
export {
  apiKeyAuth,
  operatorAuth,
  walletAuth,
  type ApiKeyLocals,
  type AuthOptions,
  type WalletLocals,
} from './auth-hooks.ts';
