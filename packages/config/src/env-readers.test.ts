import { describe, expect, it } from 'vitest';
import { ConfigError, envBool, envInt, envList, envString } from './env-readers.ts';

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
