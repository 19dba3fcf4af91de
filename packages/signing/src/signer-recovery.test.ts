import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { toHex } from './hex-codec.ts';
import { createOrderHasher } from './order-digest.ts';
import type { RecoveryBackend } from './recovery-backend.ts';
import { recoverAddress, recoveryBackends, sameAddress, signatureBackend } from './signer-recovery.ts';
import { SigningInputError } from './signing-input-error.ts';
import { CHAIN_ID, EXCHANGE, sampleOrder, signOrderWithViem, testAccount } from './testing/viem-oracle.ts';

const hasher = createOrderHasher({ chainId: CHAIN_ID, verifyingContract: EXCHANGE });
const N = secp256k1.Point.CURVE().n;

async function signedSample(i: number) {
  const account = testAccount(i);
  const order = sampleOrder(account, i);
  return { account, order, digest: hasher.hashOrder(order), signature: await signOrderWithViem(account, order) };
}

function withV(signature: string, v: number): string {
  return signature.slice(0, 130) + v.toString(16).padStart(2, '0');
}

function rejectionField(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof SigningInputError) return error.field;
    throw error;
  }
  return undefined;
}

const backends: RecoveryBackend[] = [
  recoveryBackends.noble,
  ...(recoveryBackends.native ? [recoveryBackends.native] : []),
];

describe('signer recovery', () => {
  it('uses the native addon on this machine', () => {
    expect(recoveryBackends.native).not.toBeNull();
    expect(signatureBackend).toBe('native-secp256k1');
  });

  for (const backend of backends) {
    describe(backend.name, () => {
      it('recovers the viem account that signed each order, as a lowercase address', async () => {
        for (let i = 1; i <= 20; i++) {
          const { account, digest, signature } = await signedSample(i);
          const signer = recoverAddress(digest, signature, backend);
          expect(signer).toBe(account.address.toLowerCase());
          expect(sameAddress(signer!, account.address)).toBe(true);
        }
      });

      it('accepts v as 0/1 as well as 27/28, and raw 65-byte signatures', async () => {
        const { account, digest, signature } = await signedSample(21);
        const v = parseInt(signature.slice(130), 16);
        expect(recoverAddress(digest, withV(signature, v - 27), backend)).toBe(account.address.toLowerCase());
        expect(recoverAddress(digest, Buffer.from(signature.slice(2), 'hex'), backend)).toBe(
          account.address.toLowerCase(),
        );
      });

      it('does not recover the signer from a tampered order, signature or recovery id', async () => {
        const { account, order, signature } = await signedSample(22);
        const address = account.address.toLowerCase();
        const tamperedOrder = hasher.hashOrder({ ...order, makerAmount: String(BigInt(order.makerAmount) + 1n) });
        expect(recoverAddress(tamperedOrder, signature, backend)).not.toBe(address);
        const digest = hasher.hashOrder(order);
        const v = parseInt(signature.slice(130), 16);
        expect(recoverAddress(digest, withV(signature, v === 27 ? 28 : 27), backend)).not.toBe(address);
        const flippedR = signature.slice(0, 10) + (signature[10] === '0' ? '1' : '0') + signature.slice(11);
        expect(recoverAddress(digest, flippedR, backend)).not.toBe(address);
      });

      it("recovers another signer's address from another signer's signature", async () => {
        const { account, order } = await signedSample(23);
        const other = testAccount(99);
        const signature = await signOrderWithViem(other, order);
        const signer = recoverAddress(hasher.hashOrder(order), signature, backend);
        expect(signer).toBe(other.address.toLowerCase());
        expect(sameAddress(signer!, account.address)).toBe(false);
      });

      it('returns null when r is not the x-coordinate of any curve point', () => {
        // x = 5 has no point on secp256k1 (5^3 + 7 = 132 is a non-residue mod p).
        const signature = '0x' + 5n.toString(16).padStart(64, '0') + 1n.toString(16).padStart(64, '0') + '1b';
        expect(recoverAddress(new Uint8Array(32).fill(7), signature, backend)).toBeNull();
      });
    });
  }

  it('rejects a high-s signature even though it is mathematically valid (EIP-2)', async () => {
    const { digest, signature } = await signedSample(24);
    const s = BigInt('0x' + signature.slice(66, 130));
    const v = parseInt(signature.slice(130), 16);
    const highS = signature.slice(0, 66) + (N - s).toString(16).padStart(64, '0') + (v === 27 ? '1c' : '1b');
    expect(rejectionField(() => recoverAddress(digest, highS))).toBe('signature');
  });

  it('rejects malformed signatures and digests', async () => {
    const { digest, signature } = await signedSample(25);
    const r = signature.slice(2, 66);
    const s = signature.slice(66, 130);
    const bad = [
      signature.slice(0, 130),
      signature + '00',
      signature.slice(2) + '00',
      withV(signature, 29),
      withV(signature, 2),
      '0x' + '00'.repeat(32) + s + '1b',
      '0x' + r + '00'.repeat(32) + '1b',
      '0x' + N.toString(16) + s + '1b',
      '0x' + r + s + 'zz',
      new Uint8Array(64),
    ];
    for (const sig of bad) expect(rejectionField(() => recoverAddress(digest, sig as string))).toBe('signature');
    expect(rejectionField(() => recoverAddress(digest.subarray(0, 31), signature))).toBe('digest');
  });

  it('reads the digest bytes it is given and nothing else', async () => {
    const { account, digest, signature } = await signedSample(26);
    const padded = new Uint8Array(40);
    padded.set(digest, 4);
    expect(recoverAddress(padded.subarray(4, 36), signature)).toBe(account.address.toLowerCase());
    expect(toHex(digest)).toHaveLength(66);
  });
});
