import { describe, expect, it } from 'vitest';
import { newApiCredentials } from './api-credentials.ts';
import { signL2, verifyL2 } from './l2-hmac.ts';

describe('API credentials', () => {
  it('are a UUID v4 key, a padded URL-safe base64 secret of 32 bytes and a 64-hex passphrase', () => {
    for (let i = 0; i < 50; i++) {
      const { apiKey, secret, passphrase } = newApiCredentials();
      expect(apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}=$/);
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
      expect(passphrase).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('are different every time', () => {
    const a = newApiCredentials();
    const b = newApiCredentials();
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.secret).not.toBe(b.secret);
    expect(a.passphrase).not.toBe(b.passphrase);
  });

  it('sign and verify level-2 requests with their secret', () => {
    const { secret } = newApiCredentials();
    const signature = signL2(secret, 1700000000, 'DELETE', '/order', '{"orderID":"0x1"}');
    expect(
      verifyL2(
        secret,
        { timestamp: 1700000000, method: 'DELETE', path: '/order', body: '{"orderID":"0x1"}' },
        signature,
      ),
    ).toBe(true);
    expect(
      verifyL2(
        newApiCredentials().secret,
        { timestamp: 1700000000, method: 'DELETE', path: '/order', body: '{"orderID":"0x1"}' },
        signature,
      ),
    ).toBe(false);
  });
});
