// The front end's configuration refuses, at start, values that would later look like clients'
// faults (every request 401, every order "malformed") or leave the operator API open.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pmx/config';
import { loadClobConfig } from './config.ts';

describe('loadClobConfig', () => {
  it('has defaults that run on a fresh machine', () => {
    expect(loadClobConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      authWindowSeconds: 30,
      chainId: 137,
      corsOrigin: '*',
    });
  });

  it('takes one CORS origin, any (*), or none (off)', () => {
    expect(loadClobConfig({ PMX_CORS_ORIGIN: 'https://app.example.com:8443' }).corsOrigin).toBe(
      'https://app.example.com:8443',
    );
    expect(loadClobConfig({ PMX_CORS_ORIGIN: 'off' }).corsOrigin).toBeUndefined();
    expect(() => loadClobConfig({ PMX_CORS_ORIGIN: 'https://a.example, https://b.example' })).toThrow(
      /PMX_CORS_ORIGIN must be \*, off or an origin/,
    );
  });

  it('refuses values that would fail every request later', () => {
    for (const env of [
      { PMX_AUTH_WINDOW_SECONDS: '-1' },
      { PMX_AUTH_WINDOW_SECONDS: '1000000000' },
      { PMX_CHAIN_ID: '0' },
      { PMX_EXCHANGE_ADDRESS: '0x1234' },
      { PMX_NEG_RISK_EXCHANGE_ADDRESS: 'exchange' },
      { PMX_SHARDS: '0' },
      { PMX_VERIFY_THREADS: '0' },
      { PMX_CLOB_PORT: '70000' },
      { PMX_MAX_BODY_BYTES: '10' },
      { PMX_REPLAY_WINDOW_SECONDS: '0' },
      // Refused at start: they would be written to the ledger as balances of "notanaddress" and "0xabc".
      { PMX_DEMO_MARKETS: 'true', PMX_DEMO_FUND: 'notanaddress,0xABC' },
    ]) {
      expect(() => loadClobConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });

  it('gives the command line a URL it can use for any host (IPv6 in brackets)', () => {
    const key = { PMX_OPERATOR_KEY: 'f3a9c1d27be04e6a' };
    expect(loadClobConfig({ PMX_CLOB_HOST: '::1', PMX_CLOB_PORT: '9000' }).url).toBe('http://[::1]:9000');
    expect(loadClobConfig({ ...key, PMX_CLOB_HOST: '::' }).url).toBe('http://[::1]:8080');
    expect(loadClobConfig({ ...key, PMX_CLOB_HOST: '0.0.0.0' }).url).toBe('http://127.0.0.1:8080');
    for (const host of ['::1', '::'])
      expect(() => new URL(loadClobConfig({ ...key, PMX_CLOB_HOST: host }).url)).not.toThrow();
    expect(loadClobConfig({ PMX_DEMO_FUND: `0x${'ab'.repeat(20)}, 0x${'CD'.repeat(20)}` }).demoFund).toEqual([
      `0x${'ab'.repeat(20)}`,
      `0x${'CD'.repeat(20)}`,
    ]);
  });

  it('needs a real operator key when it listens beyond this machine', () => {
    expect(() => loadClobConfig({ PMX_CLOB_HOST: '0.0.0.0' })).toThrow(/PMX_OPERATOR_KEY must be set/);
    expect(loadClobConfig({ PMX_CLOB_HOST: '0.0.0.0', PMX_OPERATOR_KEY: 'f3a9c1d27be04e6a' }).operatorKey).toBe(
      'f3a9c1d27be04e6a',
    );
  });
});
