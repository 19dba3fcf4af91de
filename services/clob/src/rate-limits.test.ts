// The trading-write limits per API key count only requests whose key auth has verified: naming a
// key (keys are public: trades show them) does not use up its owner's budget. The address's
// windows count every trading write, whatever auth says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError, type Hook, type RequestContext } from '@pmx/http';
import type { ApiKeyLocals } from '@pmx/auth';
import { clobRateLimits } from './rate-limits.ts';

const KEY = {
  apiKey: '5f0c7e2a-0000-4000-8000-000000000001',
  address: '0xa',
  nonce: '0',
  secret: 's',
  passphrase: 'p',
};

function ctx(
  ip: string,
  apiKey?: typeof KEY,
  route = { method: 'DELETE', path: '/order' },
): RequestContext<ApiKeyLocals> {
  return { ip, route, locals: apiKey === undefined ? {} : { apiKey } } as unknown as RequestContext<ApiKeyLocals>;
}

/** A route's hooks, run in order as the route runner runs them. */
const chain = (hooks: Hook<ApiKeyLocals>[]) => async (c: RequestContext<ApiKeyLocals>) => {
  for (const hook of hooks) await hook(c);
};

const status = async (run: () => unknown) => {
  try {
    await run();
    return 200;
  } catch (error) {
    return error instanceof HttpError ? error.status : 500;
  }
};

// The windows are fixed 10 s windows of the clock: a test's thousands of requests must all fall in
// one, or a window boundary crossed mid-test (on a loaded machine) resets the counts under it.
beforeEach(() => {
  vi.spyOn(Date, 'now').mockReturnValue(1_700_000_001_000);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('clob rate limits per API key', () => {
  it('are not used up by requests that fail auth, and are by those that pass', async () => {
    const limits = clobRateLimits();
    const refuse = async () => {
      throw new HttpError(401, 'SVC_SIGNATURE does not match the request');
    };
    const verify = async (c: RequestContext<ApiKeyLocals>) => {
      c.locals.apiKey = KEY;
    };
    // 2,400 cancels that only name the victim's key, from many addresses: each refused by auth.
    for (let i = 0; i < 2400; i++)
      expect(await status(() => chain([refuse, limits.perKey])(ctx(`10.0.${i >> 8}.${i & 255}`)))).toBe(401);
    // The owner's own cancels still pass, up to the burst limit of its key, from anywhere.
    for (let i = 0; i < 2400; i++)
      expect(await status(() => chain([verify, limits.perKey])(ctx(`10.1.${i >> 8}.${i & 255}`)))).toBe(200);
    expect(await status(() => chain([verify, limits.perKey])(ctx('10.2.0.1')))).toBe(429);
  });

  it('keep the per-address limit, checked at the edge before auth', async () => {
    const limits = clobRateLimits();
    let checkedAuth = 0;
    const request = (key: typeof KEY) => async (c: RequestContext<ApiKeyLocals>) => {
      for (const hook of limits.edge) await hook(c);
      checkedAuth++;
      c.locals.apiKey = key;
      await limits.perKey(c);
    };
    const keys = Array.from({ length: 3 }, (_, i) => ({ ...KEY, apiKey: `5f0c7e2a-0000-4000-8000-00000000010${i}` }));
    // One address, three keys: 2,400 in all, whatever the keys.
    for (let i = 0; i < 2400; i++) expect(await status(() => request(keys[i % 3]!)(ctx('10.3.0.1')))).toBe(200);
    const before = checkedAuth;
    expect(await status(() => request(keys[0]!)(ctx('10.3.0.1')))).toBe(429);
    expect(checkedAuth).toBe(before); // refused at the edge: auth's work is not spent on it
    expect(await status(() => request(keys[0]!)(ctx('10.3.0.2')))).toBe(200);
  });

  it("count trading writes that fail auth in the address's windows: a flood of bad signatures or made-up keys stops at 2,400", async () => {
    const limits = clobRateLimits();
    let checkedAuth = 0;
    const failing = async (c: RequestContext<ApiKeyLocals>) => {
      for (const hook of limits.edge) await hook(c);
      checkedAuth++;
      throw new HttpError(401, 'SVC_SIGNATURE does not match the request');
    };
    for (const route of [
      { method: 'DELETE', path: '/order' },
      { method: 'POST', path: '/order' },
    ]) {
      const statuses = new Map<number, number>();
      for (let i = 0; i < 2600; i++) {
        const s = await status(() => failing(ctx(`10.6.0.${route.method === 'POST' ? 1 : 2}`, undefined, route)));
        statuses.set(s, (statuses.get(s) ?? 0) + 1);
      }
      // The address's 2,400 are spent by failing writes too: past them, 429 before any key lookup.
      expect([route.path, Object.fromEntries(statuses)]).toEqual([route.path, { 401: 2400, 429: 200 }]);
    }
    expect(checkedAuth).toBe(4800);
  });

  it("count a request the key's windows refuse in none of the address's", async () => {
    const limits = clobRateLimits();
    const request = (key: typeof KEY) => async (c: RequestContext<ApiKeyLocals>) => {
      for (const hook of limits.edge) await hook(c);
      c.locals.apiKey = key;
      await limits.perKey(c);
    };
    const other = { ...KEY, apiKey: '5f0c7e2a-0000-4000-8000-000000000002' };
    // A bot's key used up from its first host; its second host keeps sending with that key.
    for (let i = 0; i < 2400; i++) expect(await status(() => request(KEY)(ctx('10.4.0.1')))).toBe(200);
    for (let i = 0; i < 2400; i++) expect(await status(() => request(KEY)(ctx('10.4.0.2')))).toBe(429);
    // That host's own budget is untouched: another key trades from it at once.
    for (let i = 0; i < 5; i++) expect(await status(() => request(other)(ctx('10.4.0.2')))).toBe(200);
    // Its general window too: refused retries give back what they counted, so they cannot lock the
    // host out of every read.
    for (let i = 0; i < 2700; i++) expect(await status(() => request(KEY)(ctx('10.4.0.2')))).toBe(429);
    const book = async (c: RequestContext<ApiKeyLocals>) => {
      for (const hook of limits.edge) await hook(c);
    };
    expect(await status(() => book(ctx('10.4.0.2', undefined, { method: 'GET', path: '/book' })))).toBe(200);
    expect(await status(() => request(other)(ctx('10.4.0.2')))).toBe(200);
  });

  it('count a request an endpoint cap refuses in no window: polling a capped endpoint leaves the rest of the API open', async () => {
    const limits = clobRateLimits();
    const edge = async (c: RequestContext<ApiKeyLocals>) => {
      for (const hook of limits.edge) await hook(c);
    };
    const health = { method: 'GET', path: '/' };
    const book = { method: 'GET', path: '/book' };
    const statuses = new Map<number, number>();
    for (let i = 0; i < 6000; i++) {
      const s = await status(() => edge(ctx('10.4.0.1', undefined, health)));
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 50, 429: 5950 });
    expect(await status(() => edge(ctx('10.4.0.1', undefined, book)))).toBe(200);
    // The health check's other name has the same cap of its own, not only the general one.
    const ok = { method: 'GET', path: '/ok' };
    for (let i = 0; i < 50; i++) expect(await status(() => edge(ctx('10.4.0.9', undefined, ok)))).toBe(200);
    expect(await status(() => edge(ctx('10.4.0.9', undefined, ok)))).toBe(429);
    // The general window still holds across routes: 5000 in all.
    const other = { method: 'GET', path: '/tick-size' };
    for (let i = 0; i < 4949; i++) await edge(ctx('10.4.0.1', undefined, other));
    expect(await status(() => edge(ctx('10.4.0.1', undefined, other)))).toBe(429);
  });

  it('cap key creation per address: every key made is kept until deleted', async () => {
    const limits = clobRateLimits();
    const create = { method: 'POST', path: '/auth/api-key' };
    const made = [];
    for (let i = 0; i < 25; i++) made.push(await status(() => chain(limits.edge)(ctx('10.5.0.1', undefined, create))));
    expect(made).toEqual([...Array(20).fill(200), ...Array(5).fill(429)]);
    expect(await status(() => chain(limits.edge)(ctx('10.5.0.2', undefined, create)))).toBe(200);
  });

  it('count an IPv6 client by its /64: another address of the same host shares its window', async () => {
    const limits = clobRateLimits();
    const health = { method: 'GET', path: '/' };
    for (let i = 0; i < 50; i++)
      await chain(limits.edge)(ctx(`2001:db8:7:7::${(i + 1).toString(16)}`, undefined, health));
    expect(await status(() => chain(limits.edge)(ctx('2001:db8:7:7:ffff::1', undefined, health)))).toBe(429);
    expect(await status(() => chain(limits.edge)(ctx('2001:db8:7:8::1', undefined, health)))).toBe(200);
  });
});
