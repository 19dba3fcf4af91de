import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEV_OPERATOR_KEY,
  envBool,
  envInt,
  envList,
  envMatch,
  envOperatorKey,
  envString,
  redactUrl,
  reportConnectionErrors,
} from './env-readers.ts';

describe('envString', () => {
  it('returns the value when set and the default when unset or blank', () => {
    expect(envString({ A: 'x' }, 'A', 'd')).toBe('x');
    expect(envString({}, 'A', 'd')).toBe('d');
    expect(envString({ A: '  ' }, 'A', 'd')).toBe('d');
  });
});

describe('envInt', () => {
  it('parses integers, signs included', () => {
    expect(envInt({ N: '42' }, 'N', 1)).toBe(42);
    expect(envInt({ N: ' -7 ' }, 'N', 1)).toBe(-7);
    expect(envInt({}, 'N', 1)).toBe(1);
  });

  it('throws a ConfigError naming the variable for a non-integer', () => {
    for (const bad of ['abc', '1.5', '1e3', '12px', '0x10']) {
      expect(() => envInt({ PMX_PORT: bad }, 'PMX_PORT', 1)).toThrow(ConfigError);
      expect(() => envInt({ PMX_PORT: bad }, 'PMX_PORT', 1)).toThrow(/PMX_PORT must be an integer/);
    }
  });

  it('throws for an integer beyond 2^53', () => {
    expect(() => envInt({ N: '9007199254740993' }, 'N', 1)).toThrow(/N is outside the safe integer range/);
  });

  it('keeps to a range when given one, both ends included', () => {
    expect(envInt({ N: '1' }, 'N', 5, { min: 1, max: 3600 })).toBe(1);
    expect(envInt({ N: '3600' }, 'N', 5, { min: 1, max: 3600 })).toBe(3600);
    expect(() =>
      envInt({ PMX_AUTH_WINDOW_SECONDS: '-1' }, 'PMX_AUTH_WINDOW_SECONDS', 30, { min: 1, max: 3600 }),
    ).toThrow('config: PMX_AUTH_WINDOW_SECONDS must be from 1 to 3600, got -1');
    expect(() => envInt({ N: '1000000000' }, 'N', 30, { min: 1, max: 3600 })).toThrow(ConfigError);
  });
});

describe('envMatch', () => {
  it('takes a value matching the pattern and names the variable otherwise', () => {
    expect(envMatch({}, 'A', '0xab', /^0x[0-9a-f]+$/, 'hex')).toBe('0xab');
    expect(() => envMatch({ A: 'nope' }, 'A', '0xab', /^0x[0-9a-f]+$/, 'hex')).toThrow(
      'config: A must be hex, got "nope"',
    );
  });
});

describe('envOperatorKey', () => {
  it('falls back to the development key only on a loopback host', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1'])
      expect(envOperatorKey({}, host)).toBe(DEV_OPERATOR_KEY);
    for (const host of ['0.0.0.0', '10.0.0.5', '::', 'exchange.example']) {
      expect(() => envOperatorKey({}, host)).toThrow(
        /PMX_OPERATOR_KEY must be set to a secret of at least 16 characters/,
      );
      expect(() => envOperatorKey({ PMX_OPERATOR_KEY: 'short' }, host)).toThrow(ConfigError);
      expect(() => envOperatorKey({ PMX_OPERATOR_KEY: DEV_OPERATOR_KEY }, host)).toThrow(ConfigError);
      expect(envOperatorKey({ PMX_OPERATOR_KEY: 'a-real-secret-of-32-characters!!' }, host)).toBe(
        'a-real-secret-of-32-characters!!',
      );
    }
  });
});

describe('envBool', () => {
  it('accepts the usual spellings in any case', () => {
    for (const yes of ['1', 'true', 'TRUE', 'yes', 'on']) expect(envBool({ B: yes }, 'B', false)).toBe(true);
    for (const no of ['0', 'false', 'False', 'no', 'off']) expect(envBool({ B: no }, 'B', true)).toBe(false);
    expect(envBool({}, 'B', true)).toBe(true);
  });

  it('throws a ConfigError naming the variable for anything else', () => {
    expect(() => envBool({ PMX_FLAG: 'maybe' }, 'PMX_FLAG', false)).toThrow(/PMX_FLAG must be one of/);
  });
});

describe('envList', () => {
  it('splits on commas, trims and drops empty items', () => {
    expect(envList({ L: 'a, b,,c ,' }, 'L', [])).toEqual(['a', 'b', 'c']);
  });

  it('returns a copy of the default when unset', () => {
    const fallback = ['x'];
    const result = envList({}, 'L', fallback);
    expect(result).toEqual(['x']);
    expect(result).not.toBe(fallback);
  });
});

describe('redactUrl', () => {
  it('hides the whole password, whatever it holds', () => {
    expect(redactUrl('postgres://pmx:Xy9/Secret+pw=@db.internal:5432/pmx')).toBe(
      'postgres://pmx:***@db.internal:5432/pmx',
    );
    expect(redactUrl('postgres://pmx:p@ss@db:5432/pmx')).toBe('postgres://pmx:***@db:5432/pmx');
    expect(redactUrl('redis://:s3cr/et@127.0.0.1:6379')).toBe('redis://:***@127.0.0.1:6379');
    expect(redactUrl('postgres://pmx@localhost/pmx')).toBe('postgres://pmx@localhost/pmx');
  });
});

describe('reportConnectionErrors', () => {
  it('says who cannot reach what, password hidden, at most once in 10 s', () => {
    const client = new EventEmitter();
    const lines: string[] = [];
    reportConnectionErrors(client, 'ingest', 'redis://:s3cr/et@10.0.0.9:6379', (line) => lines.push(line));
    for (let i = 0; i < 3; i++) client.emit('error', new Error('connect ECONNREFUSED 10.0.0.9:6379'));
    expect(lines).toEqual([
      'ingest cannot reach redis://:***@10.0.0.9:6379 (retrying): connect ECONNREFUSED 10.0.0.9:6379',
    ]);
  });
});
