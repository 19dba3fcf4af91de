// Runs the header-normalising front on a worker thread (a one-thread Piscina pool), so its socket
// work, two more hops per request, is not on the event loop that serves uWS and the handlers.
// The thread must keep its event loop running between tasks: Atomics waiting is off.
import { Piscina } from 'piscina';
import { workerExecArgv } from '@pmx/config';
import type { HeaderProxy, HeaderProxyOptions } from './header-proxy.ts';

export async function startHeaderProxyThread(options: HeaderProxyOptions): Promise<HeaderProxy> {
  const pool = new Piscina({
    filename: new URL('./header-proxy-worker.ts', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Infinity,
    atomics: 'disabled',
    workerData: options,
    execArgv: workerExecArgv(),
  });
  const port = (await pool.run(null)) as number;
  return {
    port,
    async close({ graceMs = 0 } = {}) {
      await pool.run(graceMs, { name: 'close' });
      await pool.destroy();
    },
  };
}
