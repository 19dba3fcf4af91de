// The bots' options: defaults that run against the single-machine start, bounds that keep a run
// bounded, and own source addresses only where the exchange is on loopback.
import { describe, expect, it } from 'vitest';
import { BotsUsageError, loadBotsOptions } from './config.ts';

describe('loadBotsOptions', () => {
  it('defaults to a minute of 4 makers, 8 takers and 4 noise traders at PMX_CLOB_URL', () => {
    const options = loadBotsOptions([], { PMX_CLOB_URL: 'http://127.0.0.1:8080/' });
    expect(options).toMatchObject({ url: 'http://127.0.0.1:8080', makers: 4, takers: 8, noise: 4, seconds: 60 });
    expect(options.operatorUrl).toBe('http://127.0.0.1:8080');
    expect(options.ownAddresses).toBe(true);
  });

  it('takes the command line over the environment, and PMX_BOTS_URL over PMX_CLOB_URL', () => {
    const options = loadBotsOptions(['--', '--makers', '2', '--seconds', '5', '--no-own-addresses'], {
      PMX_BOTS_URL: 'http://127.0.0.1:9000',
      PMX_CLOB_URL: 'http://127.0.0.1:8080',
    });
    expect(options).toMatchObject({ url: 'http://127.0.0.1:9000', makers: 2, seconds: 5, ownAddresses: false });
  });

  it('gives bots their own source addresses only when the exchange is on loopback', () => {
    expect(loadBotsOptions(['--url', 'http://exchange.internal:8080'], {}).ownAddresses).toBe(false);
  });

  it('refuses counts and durations out of bounds, and unknown options, as usage errors', () => {
    expect(() => loadBotsOptions(['--takers', '1000'], {})).toThrow(BotsUsageError);
    expect(() => loadBotsOptions(['--seconds', '0'], {})).toThrow(/--seconds must be a number from 1 to 3600/);
    expect(() => loadBotsOptions(['--makers', '2.5'], {})).toThrow(/whole number/);
    expect(() => loadBotsOptions(['--bogus'], {})).toThrow(BotsUsageError);
    expect(() => loadBotsOptions(['--name', '../x'], {})).toThrow(BotsUsageError);
  });
});
