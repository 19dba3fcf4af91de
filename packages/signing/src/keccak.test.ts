import { randomBytes } from 'node:crypto';
import { keccak256 as viemKeccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { keccak256, nobleKeccak } from './keccak.ts';

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

describe('keccak256', () => {
  it('gives the known digests of "" and "abc" (Keccak padding, not SHA-3)', () => {
    expect(hex(keccak256(new Uint8Array(0)))).toBe(
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(hex(keccak256(new TextEncoder().encode('abc')))).toBe(
      '0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });

  it('equals noble and viem for every length across three rate blocks (136 bytes each)', () => {
    for (let length = 0; length <= 3 * 136 + 2; length++) {
      const data = new Uint8Array(randomBytes(length));
      const digest = hex(keccak256(data));
      expect(digest, `length ${length}`).toBe(hex(nobleKeccak(data)));
      expect(digest, `length ${length}`).toBe(viemKeccak256(data));
    }
  });

  it('hashes exactly the viewed bytes of a subarray or a Buffer', () => {
    const backing = new Uint8Array(randomBytes(512));
    const view = backing.subarray(17, 17 + 64);
    expect(hex(keccak256(view))).toBe(hex(nobleKeccak(view.slice())));
    expect(hex(keccak256(Buffer.from(view)))).toBe(hex(nobleKeccak(view.slice())));
  });
});
