// Fresh level-2 credentials in the shape the official client expects from create/derive API key.
import { randomBytes, randomUUID } from 'node:crypto';

export interface ApiCredentials {
  /** UUID v4. */
  apiKey: string;
  /** 32 random bytes, URL-safe base64 with `=` padding (44 characters). */
  secret: string;
  /** 64 lowercase hex characters. */
  passphrase: string;
}

export function newApiCredentials(): ApiCredentials {
  return {
    apiKey: randomUUID(),
    secret: randomBytes(32).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
    passphrase: randomBytes(32).toString('hex'),
  };
}
