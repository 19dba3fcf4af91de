import { describe, expect, it } from 'vitest';
import { dueCount, runRawLoad } from './raw-load.ts';

describe('paced schedule', () => {
  it('makes request k due at k/rate, not one interval later', () => {
    // 200/s: requests at 0, 5, 10 … ms.
    expect(dueCount(0, 200, 100)).toBe(1);
    expect(dueCount(4.99, 200, 100)).toBe(1);
    expect(dueCount(5, 200, 100)).toBe(2);
    expect(dueCount(10.5, 200, 100)).toBe(3);
    // 1700/s: request 17 is due at 10 ms.
    expect(dueCount(10, 1700, 1000)).toBe(18);
  });

  it('never makes more due than there are', () => {
    expect(dueCount(60_000, 200, 100)).toBe(100);
  });
});

describe('what a run counts', () => {
  /** Answers by path: a whole success, a batch refusing one of its two orders, a 400, or a reset after 50 ms. */
  async function server(): Promise<{ url: string; close: () => Promise<void> }> {
    const http = await import('node:http');
    const s = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const answer = (status: number, body: string) =>
          res
            .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
            .end(body);
        if (req.url === '/one') answer(200, '{"success":true,"orderID":"0x1"}');
        else if (req.url === '/batch') answer(200, '[{"success":true},{"success":false,"errorMsg":"no"}]');
        else if (req.url === '/bad') answer(400, '{"error":"bad"}');
        else setTimeout(() => req.socket.destroy(), 50);
      });
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const { port } = s.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => s.close(() => resolve())) };
  }
  const requests = (paths: string[]) => paths.map((path) => ({ path, body: '{}', headers: {} }));

  it('takes only whole successes as throughput, counts accepted orders item by item, and refusals apart', async () => {
    const s = await server();
    try {
      const result = await runRawLoad({
        url: s.url,
        requests: requests(['/one', '/batch', '/bad', '/one', '/batch']),
        connections: 1,
        durationMs: 5_000,
      });
      expect([result.ok, result.rejected, result.acceptedItems, result.errors]).toEqual([2, 3, 4, 0]);
      expect(result.rps).toBeCloseTo(2 / result.seconds);
      expect(result.latenciesMs).toHaveLength(5);
    } finally {
      await s.close();
    }
  });

  it('counts a request lost to a reset as an error whose latency runs until the reset, and what was never sent', async () => {
    const s = await server();
    try {
      // Paced at 50/s over one connection: the reset at the second request leaves the rest unsent.
      const result = await runRawLoad({
        url: s.url,
        requests: requests(['/one', '/reset', '/one', '/one', '/one']),
        connections: 1,
        durationMs: 100,
        ratePerSecond: 50,
      });
      expect(result.ok).toBe(1);
      expect(result.errors).toBe(4);
      expect(result.latenciesMs).toHaveLength(2);
      expect(Math.max(...result.latenciesMs)).toBeGreaterThanOrEqual(45);
    } finally {
      await s.close();
    }
  });

  it('says when too few requests were prepared for the paced rate', async () => {
    const s = await server();
    try {
      // 3 requests for 100 ms at 50/s: 5 wanted.
      const result = await runRawLoad({
        url: s.url,
        requests: requests(['/one', '/one', '/one']),
        connections: 1,
        durationMs: 100,
        ratePerSecond: 50,
      });
      expect([result.ok, result.errors]).toEqual([3, 2]);
      expect(result.firstRejection).toBe('prepared requests ran out: 3 for 5 at 50/s');
    } finally {
      await s.close();
    }
  });
});
