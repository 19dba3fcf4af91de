import { describe, expect, it } from 'vitest';
import { parseL2Signature, signL2, verifyL2, type L2Request } from './l2-hmac.ts';

// Secret = bytes 0x00…0x1f; expected values computed independently with `openssl dgst -hmac`.
const SECRET = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const POST_ORDER: L2Request = { timestamp: '1700000000', method: 'POST', path: '/order', body: '{"a":1}' };
const POST_ORDER_HEX = 'b819913fb06342d5a5b357d3f3bed680f0720be4a24a73d02458a157b1f97943';
const POST_ORDER_B64URL = 'uBmRP7BjQtWls1fT877WgPByC-SiSnPQJFihV7H5eUM=';
const GET_ORDERS_B64URL = 'NTt0e8XQzUuVTici5whIU-0NfgRXijqf0FarNw-ik2Q=';

describe('level-2 HMAC', () => {
  it('signs timestamp + METHOD + path + body as URL-safe base64 with padding (known answer)', () => {
    expect(signL2(SECRET, 1700000000, 'post', '/order', '{"a":1}')).toBe(POST_ORDER_B64URL);
    expect(signL2(SECRET, '1700000000', 'GET', '/data/orders')).toBe(GET_ORDERS_B64URL);
    expect(signL2(SECRET, '1700000000', 'GET', '/data/orders', '')).toBe(GET_ORDERS_B64URL);
  });

  it('accepts hex (with or without 0x), and base64 in either alphabet with or without padding', () => {
    expect(verifyL2(SECRET, POST_ORDER, POST_ORDER_HEX)).toBe(true);
    expect(verifyL2(SECRET, POST_ORDER, POST_ORDER_HEX.toUpperCase())).toBe(true);
    expect(verifyL2(SECRET, POST_ORDER, '0x' + POST_ORDER_HEX)).toBe(true);
    expect(verifyL2(SECRET, POST_ORDER, POST_ORDER_B64URL)).toBe(true);
    expect(verifyL2(SECRET, POST_ORDER, POST_ORDER_B64URL.replace(/=$/, ''))).toBe(true);
    const standard = POST_ORDER_B64URL.replace(/-/g, '+').replace(/_/g, '/');
    expect(standard).toMatch(/\+/);
    expect(verifyL2(SECRET, POST_ORDER, standard)).toBe(true);
    expect(parseL2Signature(standard)).toEqual(Buffer.from(POST_ORDER_HEX, 'hex'));
  });

  it('checks the raw body bytes as received', () => {
    expect(verifyL2(SECRET, { ...POST_ORDER, body: Buffer.from('{"a":1}') }, POST_ORDER_HEX)).toBe(true);
    expect(verifyL2(SECRET, { ...POST_ORDER, body: '{"a": 1}' }, POST_ORDER_HEX)).toBe(false);
  });

  it('fails with a wrong secret, a stale body, another path, method or timestamp', () => {
    const otherSecret = 'AQECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
    expect(verifyL2(otherSecret, POST_ORDER, POST_ORDER_B64URL)).toBe(false);
    expect(verifyL2(SECRET, { ...POST_ORDER, body: '{"a":2}' }, POST_ORDER_B64URL)).toBe(false);
    expect(verifyL2(SECRET, { ...POST_ORDER, path: '/orders' }, POST_ORDER_B64URL)).toBe(false);
    expect(verifyL2(SECRET, { ...POST_ORDER, method: 'DELETE' }, POST_ORDER_B64URL)).toBe(false);
    expect(verifyL2(SECRET, { ...POST_ORDER, timestamp: '1700000001' }, POST_ORDER_B64URL)).toBe(false);
  });

  it('refuses signatures in any other shape without throwing', () => {
    for (const bad of [
      '',
      'abc',
      POST_ORDER_HEX.slice(2),
      '0X' + POST_ORDER_HEX,
      POST_ORDER_HEX + '00',
      POST_ORDER_B64URL + '=',
      POST_ORDER_B64URL.replace(/-/g, '.'),
      42 as unknown as string,
    ]) {
      expect(verifyL2(SECRET, POST_ORDER, bad)).toBe(false);
      expect(parseL2Signature(bad)).toBeUndefined();
    }
  });

  it('decodes the secret in either base64 alphabet', () => {
    const secret = '-_' + 'A'.repeat(41) + '=';
    const standard = '+/' + 'A'.repeat(41) + '=';
    expect(signL2(secret, 1, 'GET', '/')).toBe(signL2(standard, 1, 'GET', '/'));
  });
});
