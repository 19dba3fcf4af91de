// keccak-256 for every digest we compute (EIP-712 structs, domains, final digests, addresses),
// through js-sha3: pure JS, about twice as fast here as @noble/hashes (17 against 31 µs for an
// order's 384-byte struct, bench/signing); with noble, keccak is a third of an order's signature
// check in profiles. The native XKCP sponge of npm `keccak` is faster still (≈ 6 µs) but unsafe
// here: its node-addon-api 2 rethrows a failed napi_throw as a C++ exception, so a verify thread
// terminated inside one of its calls (a pool closing) aborts the whole process.
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';
import { keccak256 as sha3Keccak256 } from 'js-sha3';

/** keccak-256 of `data`: 32 bytes. */
export function keccak256(data: Uint8Array): Uint8Array {
  return new Uint8Array(sha3Keccak256.arrayBuffer(data));
}

/** @noble/hashes' keccak-256 (what viem uses), for tests and benches to compare with. */
export const nobleKeccak: (data: Uint8Array) => Uint8Array = nobleKeccak256;
