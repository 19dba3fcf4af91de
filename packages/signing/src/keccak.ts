// keccak-256 for every digest we compute (EIP-712 structs, domains, final digests, addresses).
// The native Keccak sponge of npm `keccak` (the XKCP reference code, a Node-API addon) is about
// five times faster here than @noble/hashes: 6 against 34 µs for an order's 384-byte struct
// (bench/signing), where keccak had been ≈ 40 % of an order's signature check. The addon is
// loaded as the package loads it and driven directly: the package's main entry wraps it in a
// stream object per hash and silently swaps in pure JS when the addon is missing. Without the
// addon, noble is used, and the process says so at start.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { keccak_256 as nobleKeccak256 } from '@noble/hashes/sha3.js';

export type KeccakBackendName = 'native-keccak' | 'noble-hashes';

/** The addon's sponge (KeccakWidth1600); absorb takes a Buffer, squeeze returns a new one. */
interface NativeSponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  absorbLastFewBits(bits: number): void;
  squeeze(length: number): Buffer;
}

// keccak-256: rate 1088 bits, capacity 512, the original Keccak padding (suffix 0x01, not SHA-3's 0x06).
const RATE = 1088;
const CAPACITY = 512;
const KECCAK_SUFFIX = 0x01;

/** keccak-256 through the native addon, or the reason it could not be loaded. */
export function loadNativeKeccak256(): ((data: Uint8Array) => Uint8Array) | Error {
  let sponge: NativeSponge;
  try {
    // node-gyp-build as `keccak` itself loads its addon: a prebuilt one for this platform, else the local build.
    const manifest = createRequire(import.meta.url).resolve('keccak/package.json');
    const load = createRequire(manifest)('node-gyp-build') as (dir: string) => unknown;
    const Sponge = load(dirname(manifest));
    if (typeof Sponge !== 'function') throw new Error('the keccak addon did not load');
    sponge = new (Sponge as new () => NativeSponge)();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  // One sponge per thread, reset for every hash: a call runs to completion, nothing interleaves.
  return (data) => {
    sponge.initialize(RATE, CAPACITY);
    sponge.absorb(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    sponge.absorbLastFewBits(KECCAK_SUFFIX);
    const digest = sponge.squeeze(32);
    return new Uint8Array(digest.buffer, digest.byteOffset, 32);
  };
}

const nativeOrError = loadNativeKeccak256();

/** Which implementation `keccak256` uses in this process. */
export const keccakBackend: KeccakBackendName = nativeOrError instanceof Error ? 'noble-hashes' : 'native-keccak';

/** keccak-256 of `data`: 32 bytes. */
export const keccak256: (data: Uint8Array) => Uint8Array = nativeOrError instanceof Error ? nobleKeccak256 : nativeOrError;

/** The pure-JS implementation, for tests and benches to compare with. */
export const nobleKeccak: (data: Uint8Array) => Uint8Array = nobleKeccak256;

if (isMainThread && nativeOrError instanceof Error) {
  console.warn(`[signing] native keccak unavailable (${nativeOrError.message.split('\n')[0]}); using the pure-JS @noble/hashes keccak`);
}
