// A Redis that hangs (stopped, black-holed) under a trading front end: the shards cannot store
// their events, so nothing they did can be acknowledged. New orders are refused at once once a
// shard has waited PMX_SHARD_STALL_MS (not placed: the same signed order may come again), and a
// stop answers an order stuck that way 503 rather than drop its connection. A Redis that lost what
// it had stored halts trading.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { cleanupRedisPrefix, holdingRelay, limit, testkitConfig, Trader, type HoldingRelay } from '@pmx/testkit';
import { startClob, type Harness } from '../src/testing/clob-harness.ts';

const USDC = 1_000_000n;
let relay: HoldingRelay | undefined;
let h: Harness | undefined;

afterEach(async () => {
  relay?.release();
  await h?.close();
  relay?.close();
  h = relay = undefined;
});

async function tradingThroughRelay(env: Record<string, string> = {}) {
  relay = await holdingRelay(testkitConfig.redisUrl);
  h = await startClob({ PMX_REDIS_URL: relay.url, PMX_SHARDS: '1', ...env });
  const { yes } = await h.createMarket();
  const alice = new Trader(h.url);
  await alice.createApiKey();
  await h.deposit(alice.address, 100n * USDC);
  // The shard's connection to Redis is up (an order acknowledged) before Redis hangs.
  expect((await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.10', 10) })).status).toBe(200);
  return { h, relay, yes, alice };
}

/** The promise's value, or 'no answer' if it has none within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'no answer'> {
  return Promise.race([promise, sleep(ms).then(() => 'no answer' as const)]);
}

describe('a hung Redis', () => {
  it('refuses new orders at once after PMX_SHARD_STALL_MS, and takes them again once Redis answers', async () => {
    const { h, relay, yes, alice } = await tradingThroughRelay({ PMX_SHARD_STALL_MS: '1000' });
    // The shard thread's log lines reach this process's standard output.
    const logged: string[] = [];
    const stdout = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => logged.push(String(chunk)) > 0);
    relay.hold();
    const first = alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) });
    await sleep(1200);
    const second = await alice.signOrder({ tokenId: yes, ...limit('BUY', '0.30', 10) });
    const refused = await within(alice.authed('POST', '/order', second), 2000);
    expect(refused).not.toBe('no answer');
    expect(refused).toMatchObject({
      status: 503,
      body: {
        error: expect.stringMatching(
          /^shard 0 has not been able to store its events for 1 s .*the order was not placed: retry later$/,
        ),
      },
    });

    relay.release();
    expect((await first).body).toMatchObject({ success: true, status: 'live' });
    stdout.mockRestore();
    // The append Redis did not answer within the stall time was logged, and tried again.
    expect(logged.join('')).toMatch(
      /shard 0: storing events \d+\.\.\d+ failed \(Command timed out\); the shard waits and tries again/,
    );
    // Not placed, so not spent: the same signed order goes through now.
    expect((await alice.authed('POST', '/order', second)).body).toMatchObject({ success: true, status: 'live' });
    const open = await alice.authed('GET', '/data/orders');
    expect(open.body.data.map((o: { price: string }) => o.price).sort()).toEqual(['0.1', '0.2', '0.3']);
    h.expectConsistent();
  });

  it('a stop answers an order whose events cannot be stored 503 (outcome unknown), not a dropped connection', async () => {
    const { h: harness, relay, yes, alice } = await tradingThroughRelay();
    relay.hold();
    const stuck = alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) }).catch((error: unknown) => error);
    await sleep(300);
    h = undefined;
    await harness.close();
    expect(await stuck).toMatchObject({
      status: 503,
      body: {
        error: expect.stringMatching(/^the exchange is stopping; .*GET \/data\/order\/\{id\} if it was placed\)$/),
      },
    });
  });

  it("halts trading once Redis has lost the events it stored (the queue's job counter went back)", async () => {
    const { h, yes, alice } = await tradingThroughRelay();
    // Redis loses everything of this exchange (a restart without persistence, a flush).
    const redis = new Redis(testkitConfig.redisUrl);
    await cleanupRedisPrefix(redis, `${h.redisPrefix}:`);
    redis.disconnect();
    // This order's append gets job 1 after the jobs before: its events went to a queue that lost
    // what came before them (ingest stops at the gap), so its outcome is unknown; trading halts.
    const unknown = await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) });
    expect(unknown).toMatchObject({
      status: 503,
      body: {
        error: expect.stringMatching(
          /^trading halted: shard 0: its Redis queue lost stored events .*the outcome of this command is unknown$/,
        ),
      },
    });
    expect(await within(h.app.fatal, 1000)).toMatchObject({
      message: expect.stringMatching(
        /^shard 0: its Redis queue lost stored events \(job 1 added after job \d+, at events \d+\.\.\d+\)/,
      ),
    });
    const next = await alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.30', 10) });
    expect(next.status).toBe(503);
  });

  it('halts trading when Redis came back empty from a hang, though the appends retried meanwhile used up job numbers', async () => {
    const { h, relay, yes, alice } = await tradingThroughRelay({ PMX_SHARD_STALL_MS: '1000' });
    relay.hold();
    const stuck = alice.placeOrder({ tokenId: yes, ...limit('BUY', '0.20', 10) });
    // Its append times out and is tried again a few times; ioredis keeps each timed-out copy and
    // sends it once Redis answers, so the copies take job numbers 1, 2, … of the emptied Redis.
    await sleep(4000);
    const redis = new Redis(testkitConfig.redisUrl);
    await cleanupRedisPrefix(redis, `${h.redisPrefix}:`);
    redis.disconnect();
    relay.release();
    expect(await stuck).toMatchObject({
      status: 503,
      body: {
        error: expect.stringMatching(
          /^trading halted: shard 0: its Redis queue lost stored events \(its mark in Redis is gone, at events/,
        ),
      },
    });
    expect(await within(h.app.fatal, 1000)).not.toBe('no answer');
  });

  it('a stop with Redis well still acks the orders it has read (they reach the shards during the HTTP grace)', async () => {
    const { h: harness, yes, alice } = await tradingThroughRelay();
    const signed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => alice.signOrder({ tokenId: yes, ...limit('BUY', `0.${20 + i}`, 10) })),
    );
    const answers = signed.map((order) => alice.authed('POST', '/order', order).catch((error: unknown) => error));
    // The stop comes once the server has answered one (on a busy machine 5 ms may pass before it
    // reads any), while the others are still on their way.
    await Promise.race(answers);
    h = undefined;
    await harness.close();
    const statuses = (await Promise.all(answers)).map((a) =>
      a instanceof Error ? 'dropped' : (a as { status: number }).status,
    );
    // A request the stop cut before it was read is dropped unanswered (never placed); every one
    // read was placed and acked, none refused as stopping.
    expect(statuses.filter((s) => s !== 'dropped' && s !== 200)).toEqual([]);
    expect(statuses).toContain(200);
  });
});
