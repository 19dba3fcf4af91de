// Level-1 (wallet) auth: the EIP-712 `ClobAuth` message a wallet signs to create or derive its API
// key, and its check. Freshness of the timestamp is the caller's policy, not checked here.
import { keccak256 } from './keccak.ts';
import { writeAddress, writeUint256, type UintInput } from './abi-words.ts';
import { digestPrefix, domainSeparator, encodeType, keccakUtf8, typeHash, typedDataDigest } from './eip712-domain.ts';
import { recoverAddress, sameAddress } from './signer-recovery.ts';
import { SigningInputError } from './signing-input-error.ts';

/** The ClobAuth struct as EIP-712 tooling (viem, ethers) takes it. */
export const CLOB_AUTH_EIP712_TYPES = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
} as const;

/** `ClobAuth(address address,string timestamp,uint256 nonce,string message)`. */
export const CLOB_AUTH_TYPE = encodeType('ClobAuth', CLOB_AUTH_EIP712_TYPES.ClobAuth);
export const CLOB_AUTH_DOMAIN_NAME = 'ClobAuthDomain';
export const CLOB_AUTH_DOMAIN_VERSION = '1';
export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';

export interface ClobAuthFields {
  /** The wallet claimed in the address header. */
  address: string;
  /** The timestamp header exactly as sent (seconds, signed as a string). */
  timestamp: string | number;
  nonce: UintInput;
  chainId: number;
}

const CLOB_AUTH_TYPE_HASH = typeHash(CLOB_AUTH_TYPE);
const MESSAGE_HASH = keccakUtf8(CLOB_AUTH_MESSAGE);
const prefixes = new Map<number, Uint8Array>();

function prefixFor(chainId: number): Uint8Array {
  let prefix = prefixes.get(chainId);
  if (!prefix) {
    if (!Number.isSafeInteger(chainId) || chainId <= 0)
      throw new SigningInputError('chainId', 'expected a positive integer');
    prefix = digestPrefix(domainSeparator({ name: CLOB_AUTH_DOMAIN_NAME, version: CLOB_AUTH_DOMAIN_VERSION, chainId }));
    prefixes.set(chainId, prefix);
  }
  return prefix;
}

/** The EIP-712 digest a wallet signs for level-1 auth. Throws SigningInputError on malformed fields. */
export function clobAuthDigest({ address, timestamp, nonce, chainId }: ClobAuthFields): Uint8Array {
  if (typeof timestamp !== 'string' && typeof timestamp !== 'number')
    throw new SigningInputError('timestamp', 'expected a string');
  const struct = new Uint8Array(32 * 5);
  struct.set(CLOB_AUTH_TYPE_HASH, 0);
  writeAddress(address, struct, 32, 'address');
  struct.set(keccakUtf8(String(timestamp)), 64);
  writeUint256(nonce, struct, new DataView(struct.buffer), 96, 'nonce');
  struct.set(MESSAGE_HASH, 128);
  return typedDataDigest(prefixFor(chainId), keccak256(struct));
}

/** True when `signature` over the ClobAuth message was made by `address`; false for anything else, malformed input included. */
export function verifyClobAuth(fields: ClobAuthFields & { signature: string }): boolean {
  try {
    const signer = recoverAddress(clobAuthDigest(fields), fields.signature);
    return signer !== null && sameAddress(signer, fields.address);
  } catch (error) {
    if (error instanceof SigningInputError) return false;
    throw error;
  }
}
