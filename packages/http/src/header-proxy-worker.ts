// The header-normalising front on a thread of its own (see header-proxy-thread.ts): it starts
// when Piscina loads this module, and answers where it listens and when to stop.
import { workerData } from 'node:worker_threads';
import { startHeaderProxy, type HeaderProxyOptions } from './header-proxy.ts';

const proxy = startHeaderProxy(workerData as HeaderProxyOptions);

/** Where the front listens (the default export: Piscina needs one to load the module). */
export default async function port(): Promise<number> {
  return (await proxy).port;
}

export async function close(graceMs: number): Promise<void> {
  await (await proxy).close({ graceMs });
}
