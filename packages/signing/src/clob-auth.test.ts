import { hashTypedData, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { CLOB_AUTH_MESSAGE, CLOB_AUTH_TYPE, clobAuthDigest, verifyClobAuth } from './clob-auth.ts';
import { toHex } from './hex-codec.ts';
import { clobAuthTypes, testAccount } from './testing/viem-oracle.ts';

const account = testAccount(11);

function viemClobAuth(address: string, timestamp: string, nonce: bigint, chainId = 137) {
  return {
    domain: { name: 'ClobAuthDomain', version: '1', chainId },
    types: clobAuthTypes,
    primaryType: 'ClobAuth' as const,
    message: { address: address as Hex, timestamp, nonce, message: CLOB_AUTH_MESSAGE },
  };
}

describe('level-1 ClobAuth', () => {
  it('hashes the ClobAuth type string exactly', () => {
    expect(CLOB_AUTH_TYPE).toBe('ClobAuth(address address,string timestamp,uint256 nonce,string message)');
  });

  it('has the digest viem computes', () => {
    for (const [timestamp, nonce] of [
      ['1700000000', 0n],
      ['1', 7n],
      ['1760000000', (1n << 255n) + 3n],
    ] as const) {
      const expected = hashTypedData(viemClobAuth(account.address, timestamp, nonce));
      expect(
        toHex(clobAuthDigest({ address: account.address, timestamp, nonce: nonce.toString(), chainId: 137 })),
      ).toBe(expected);
    }
  });

  it('verifies a signature the wallet made, whatever the address case', async () => {
    const signature = await account.signTypedData(viemClobAuth(account.address, '1700000000', 0n));
    expect(
      verifyClobAuth({ address: account.address, timestamp: '1700000000', nonce: '0', signature, chainId: 137 }),
    ).toBe(true);
    expect(
      verifyClobAuth({
        address: account.address.toLowerCase(),
        timestamp: 1700000000,
        nonce: 0,
        signature,
        chainId: 137,
      }),
    ).toBe(true);
  });

  it('refuses another address, timestamp, nonce or chain', async () => {
    const signature = await account.signTypedData(viemClobAuth(account.address, '1700000000', 5n));
    const fields = { address: account.address, timestamp: '1700000000', nonce: '5', signature, chainId: 137 };
    expect(verifyClobAuth(fields)).toBe(true);
    expect(verifyClobAuth({ ...fields, address: testAccount(12).address })).toBe(false);
    expect(verifyClobAuth({ ...fields, timestamp: '1700000001' })).toBe(false);
    expect(verifyClobAuth({ ...fields, nonce: '6' })).toBe(false);
    expect(verifyClobAuth({ ...fields, chainId: 80002 })).toBe(false);
  });

  it('answers false, not an exception, for malformed headers', async () => {
    const signature = await account.signTypedData(viemClobAuth(account.address, '1700000000', 0n));
    const fields = { address: account.address, timestamp: '1700000000', nonce: '0', signature, chainId: 137 };
    expect(verifyClobAuth({ ...fields, signature: '0x1234' })).toBe(false);
    expect(verifyClobAuth({ ...fields, address: 'not an address' })).toBe(false);
    expect(verifyClobAuth({ ...fields, nonce: '-1' })).toBe(false);
    expect(verifyClobAuth({ ...fields, signature: undefined as unknown as string })).toBe(false);
  });
});
