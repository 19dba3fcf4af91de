// Authentication end to end through the edge, with the contract's SVC_X header names: level 1
// (wallet signature) for API keys, level 2 (API key + HMAC) for trading, the operator's bearer
// token — every failure a 401 in the simple shape.
import { SignatureCheck, signL2 } from '@pmx/signing';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Harness } from '@pmx/clob/testing';
import { startClobBehindEdge, type ClobBehindEdge } from './clob-behind-edge.ts';
import { Trader, limit } from '@pmx/testkit';

let h: Harness;
let served: ClobBehindEdge;
/** The edge in front of the clob: the contract's SVC_X names work there. */
let url: string;

beforeAll(async () => {
  served = await startClobBehindEdge();
  ({ h, url } = served);
});
afterAll(async () => {
  await served?.close();
});

describe('level 1: API keys from a wallet signature', () => {
  it('creates a key once per nonce, derives the same key, and refuses a second create', async () => {
    const trader = new Trader(url, undefined, '_');
    const created = await trader.createApiKey();
    expect(created.apiKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(created.passphrase).toMatch(/^[0-9a-f]{64}$/);
    const derived = await trader.send('GET', '/auth/derive-api-key', { headers: await trader.l1Headers() });
    expect(derived).toMatchObject({ status: 200, body: created });
    const again = await trader.send('POST', '/auth/api-key', { headers: await trader.l1Headers() });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/Could not create api key/);
    const otherNonce = await trader.send('POST', '/auth/api-key', { headers: await trader.l1Headers(7) });
    expect(otherNonce.status).toBe(200);
    expect(otherNonce.body.apiKey).not.toBe(created.apiKey);
  });

  it('refuses a signature by another wallet, a stale timestamp and missing headers', async () => {
    const trader = new Trader(url, undefined, '_');
    const other = new Trader(url, undefined, '_');
    const forged = { ...(await other.l1Headers()), SVC_ADDRESS: trader.address };
    expect(await trader.send('POST', '/auth/api-key', { headers: forged })).toMatchObject({
      status: 401,
      body: { error: expect.stringMatching(/Invalid L1/) },
    });
    const stale = await trader.l1Headers(0, Math.floor(Date.now() / 1000) - 120);
    expect(await trader.send('POST', '/auth/api-key', { headers: stale })).toMatchObject({
      status: 401,
      body: { error: expect.stringMatching(/SVC_TIMESTAMP/) },
    });
    const { SVC_SIGNATURE: _, ...unsigned } = await trader.l1Headers();
    expect(await trader.send('POST', '/auth/api-key', { headers: unsigned })).toEqual(
      expect.objectContaining({ status: 401, body: { error: 'missing header SVC_SIGNATURE' } }),
    );
    // 78 digits but past uint256: the nonce is named, not the signature.
    const tooLarge = { ...(await trader.l1Headers()), SVC_NONCE: String(1n << 256n) };
    expect(await trader.send('POST', '/auth/api-key', { headers: tooLarge })).toMatchObject({
      status: 401,
      body: { error: 'SVC_NONCE must be at most 2^256 - 1 (a uint256)' },
    });
  });

  it('derive answers 400 when no key exists for that nonce', async () => {
    const trader = new Trader(url, undefined, '_');
    const response = await trader.send('GET', '/auth/derive-api-key', { headers: await trader.l1Headers(3) });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/Could not derive api key/);
  });
});

describe('level 2: API key and HMAC', () => {
  let trader: Trader;
  beforeAll(async () => {
    trader = new Trader(url, undefined, '_');
    await trader.createApiKey();
  });

  it('accepts a correct request, hex or base64 signatures alike, and names a signature in no such form', async () => {
    expect((await trader.authed('GET', '/data/orders')).status).toBe(200);
    const headers = trader.l2Headers('GET', '/data/orders');
    const bytes = Buffer.from(headers['SVC_SIGNATURE']!, 'base64url');
    for (const signature of [bytes.toString('hex'), '0x' + bytes.toString('hex'), bytes.toString('base64')]) {
      expect(
        (await trader.send('GET', '/data/orders', { headers: { ...headers, SVC_SIGNATURE: signature } })).status,
      ).toBe(200);
    }
    const garbled = await trader.send('GET', '/data/orders', {
      headers: { ...headers, SVC_SIGNATURE: bytes.toString('hex').slice(1) },
    });
    expect(garbled).toMatchObject({
      status: 401,
      body: { error: 'SVC_SIGNATURE must be the HMAC-SHA256 as 64 hex digits or as base64 (URL-safe or standard)' },
    });
  });

  it.each([
    ['SVC_API_KEY', 'missing header SVC_API_KEY'],
    ['SVC_PASSPHRASE', 'missing header SVC_PASSPHRASE'],
    ['SVC_SIGNATURE', 'missing header SVC_SIGNATURE'],
    ['SVC_TIMESTAMP', 'missing header SVC_TIMESTAMP'],
    ['SVC_ADDRESS', 'missing header SVC_ADDRESS'],
  ])('refuses a request without %s', async (name, message) => {
    const headers = trader.l2Headers('GET', '/data/orders');
    delete headers[name];
    expect(await trader.send('GET', '/data/orders', { headers })).toMatchObject({
      status: 401,
      body: { error: message },
    });
  });

  it("drops a client's own SVC-X beside the contract's SVC_X at the edge; the service names a header sent twice", async () => {
    const headers = trader.l2Headers('GET', '/data/orders');
    const both = { ...headers, 'SVC-TIMESTAMP': '1' };
    expect((await trader.send('GET', '/data/orders', { headers: both })).status).toBe(200);
    // Straight at the service (its direct port takes SVC-X): a repeated header is refused by name.
    const direct = new Trader(h.url, undefined, '-');
    direct.credentials = trader.credentials;
    const dashed = direct.l2Headers('GET', '/data/orders');
    const twice = new Headers(dashed);
    twice.append('SVC-TIMESTAMP', dashed['SVC-TIMESTAMP']!);
    const refused = await fetch(`${h.url}/data/orders`, { headers: twice });
    expect([refused.status, await refused.json()]).toEqual([401, { error: 'SVC_TIMESTAMP sent more than once' }]);
  });

  it('refuses a wrong HMAC, a signature over another body, a stale timestamp, a wrong passphrase, an unknown key and another address', async () => {
    const base = trader.l2Headers('DELETE', '/order', '{"orderID":"0x1"}');
    const cases: [Record<string, string>, RegExp][] = [
      [
        {
          ...base,
          SVC_SIGNATURE: signL2(
            Buffer.alloc(32).toString('base64url'),
            base['SVC_TIMESTAMP']!,
            'DELETE',
            '/order',
            '{"orderID":"0x1"}',
          ),
        },
        /SVC_SIGNATURE/,
      ],
      [
        { ...base, SVC_SIGNATURE: trader.l2Headers('DELETE', '/order', '{"orderID":"0x2"}')['SVC_SIGNATURE']! },
        /SVC_SIGNATURE/,
      ],
      [trader.l2Headers('DELETE', '/order', '{"orderID":"0x1"}', Math.floor(Date.now() / 1000) - 31), /SVC_TIMESTAMP/],
      [{ ...base, SVC_PASSPHRASE: 'f'.repeat(64) }, /SVC_PASSPHRASE/],
      [{ ...base, SVC_API_KEY: '00000000-0000-4000-8000-000000000000' }, /Invalid api key/],
      // Not a uuid at all: an unknown key, not a database error.
      [{ ...base, SVC_API_KEY: '-'.repeat(36) }, /Invalid api key/],
      [{ ...base, SVC_ADDRESS: new Trader(url, undefined, '_').address }, /SVC_ADDRESS/],
    ];
    for (const [headers, message] of cases) {
      const response = await trader.send('DELETE', '/order', { headers, body: '{"orderID":"0x1"}' });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: expect.stringMatching(message) });
    }
  });

  it('lists the address’s keys and deletes the calling key', async () => {
    const owner = new Trader(url, undefined, '_');
    await owner.createApiKey();
    const listed = await owner.authed('GET', '/auth/api-keys');
    expect(listed.body).toEqual({ apiKeys: [owner.credentials!.apiKey] });
    // Postgres fails the delete: 503, and the key still works (it still exists), for a retry.
    await h.sql
      .unsafe(`CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
                        CREATE TRIGGER refuse_delete BEFORE DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION refuse_delete();`);
    try {
      const failed = await owner.authed('DELETE', '/auth/api-key');
      expect([failed.status, failed.body.error]).toEqual([
        503,
        expect.stringMatching(/could not be deleted .* it still works: retry shortly$/),
      ]);
      expect((await owner.authed('GET', '/data/orders')).status).toBe(200);
    } finally {
      await h.sql.unsafe('DROP TRIGGER refuse_delete ON api_keys; DROP FUNCTION refuse_delete();');
    }
    expect((await owner.authed('DELETE', '/auth/api-key')).status).toBe(200);
    expect((await owner.authed('GET', '/data/orders')).status).toBe(401);
  });

  it('cancels the open orders of a deleted key, and refuses its order still on the way', async () => {
    const { yes } = await h.createMarket();
    const wallet = generatePrivateKey();
    const owner = new Trader(url, wallet, '_');
    await owner.createApiKey(0);
    await h.deposit(owner.address, 100n * 1_000_000n);
    const resting = (await owner.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) })).body.orderID as string;
    // The same wallet's second key: its order stays.
    const second = new Trader(url, wallet, '_');
    await second.createApiKey(1);
    const kept = (await second.placeOrder({ tokenId: yes, ...limit('BUY', '0.30', 10) })).body.orderID as string;

    // An order of the first key waits in its signature check (a busy verify pool) over the delete.
    const verify = SignatureCheck.prototype.verify;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = vi.spyOn(SignatureCheck.prototype, 'verify').mockImplementation(async function (
      this: SignatureCheck,
      ...args
    ) {
      await held;
      return verify.apply(this, args);
    });
    try {
      const onTheWay = owner.placeOrder({ tokenId: yes, ...limit('BUY', '0.35', 10) });
      // The order is in its signature check (past level-2 auth) before the key goes.
      await expect.poll(() => spy.mock.calls.length).toBe(1);
      expect((await owner.authed('DELETE', '/auth/api-key')).status).toBe(200);
      release();
      const late = await onTheWay;
      expect([late.status, late.body]).toEqual([401, { error: 'Unauthorized/Invalid api key' }]);
    } finally {
      spy.mockRestore();
    }
    const open = (await second.authed('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id);
    expect(open).toEqual([kept]);
    expect(h.app.core.openOrders.get(resting)).toBeUndefined();
    expect(h.app.core.risk.reserved(resting)).toBe(0);
    expect((await second.authed('GET', '/balance-allowance?asset_type=COLLATERAL')).body.allowance).toBe(
      String(97n * 1_000_000n),
    );
    h.expectConsistent();
  });

  it('deletes the key’s row only once its orders are cancelled, and gives the key back when one cannot be', async () => {
    const { yes } = await h.createMarket();
    const owner = new Trader(url, undefined, '_');
    await owner.createApiKey();
    await h.deposit(owner.address, 100n * 1_000_000n);
    const resting = (await owner.placeOrder({ tokenId: yes, ...limit('BUY', '0.40', 10) })).body.orderID as string;
    const rows = async () => (await h.sql`SELECT 1 FROM api_keys WHERE api_key = ${owner.credentials!.apiKey}`).length;
    const submit = h.app.shards.submit.bind(h.app.shards);
    // The shard fails the cancel: the delete answers 503, the key and its order are still there.
    let failing = true;
    let heldCancel: Promise<void> | undefined;
    const spy = vi.spyOn(h.app.shards, 'submit').mockImplementation(async (shard, command) => {
      if (command.type === 'cancel' && failing) throw new Error('shard unavailable for the test');
      if (command.type === 'cancel') await heldCancel;
      return submit(shard, command);
    });
    try {
      const failed = await owner.authed('DELETE', '/auth/api-key');
      expect([failed.status, failed.body.error]).toEqual([
        503,
        expect.stringMatching(/could not be cancelled .* the key was not deleted and still works/),
      ]);
      expect(await rows()).toBe(1);
      expect((await owner.authed('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id)).toEqual([resting]);

      // While the cancel is under way the row is still there (a crash now leaves a working key).
      failing = false;
      let release!: () => void;
      heldCancel = new Promise<void>((resolve) => (release = resolve));
      const deleting = owner.authed('DELETE', '/auth/api-key');
      await expect.poll(() => spy.mock.calls.filter(([, command]) => command.type === 'cancel').length).toBe(2);
      expect(await rows()).toBe(1);
      release();
      expect((await deleting).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(await rows()).toBe(0);
    expect(h.app.core.openOrders.get(resting)).toBeUndefined();
    expect((await owner.authed('GET', '/data/orders')).status).toBe(401);
    h.expectConsistent();
  });

  it('takes a key only as issued, so no other spelling outlives its deletion', async () => {
    const owner = new Trader(url, undefined, '_');
    await owner.createApiKey();
    const upper = () => ({
      ...owner.l2Headers('GET', '/data/orders'),
      SVC_API_KEY: owner.credentials!.apiKey.toUpperCase(),
    });
    // Postgres matches a uuid in any case; the key used upper-case once must not stay cached under
    // that spelling after DELETE clears the issued one.
    expect((await owner.send('GET', '/data/orders', { headers: upper() })).status).toBe(401);
    expect((await owner.authed('GET', '/data/orders')).status).toBe(200);
    expect((await owner.authed('DELETE', '/auth/api-key')).status).toBe(200);
    expect((await owner.send('GET', '/data/orders', { headers: upper() })).status).toBe(401);
  });
});

describe('operator API', () => {
  it('needs the operator bearer token', async () => {
    const url = `${h.url}/operator/balances?address=0x${'1'.repeat(40)}`;
    const wrong = await fetch(url, { headers: { authorization: 'Bearer wrong' } });
    expect([wrong.status, await wrong.json()]).toEqual([
      401,
      { error: 'wrong operator key (the server reads PMX_OPERATOR_KEY)' },
    ]);
    const missing = await fetch(url);
    expect([missing.status, await missing.json()]).toEqual([
      401,
      { error: 'operator key required (Authorization: Bearer …)' },
    ]);
  });
});
