// EIP-712 pieces shared by every typed message we check: type hashes, domain separators and the
// final `keccak(0x1901 ‖ domainSeparator ‖ structHash)`.
import { keccak256 } from './keccak.ts';
import { writeAddress, writeUint256 } from './abi-words.ts';

export interface Eip712Domain {
  name: string;
  version: string;
  chainId: number;
  /** Omitted for domains without one (ClobAuthDomain). */
  verifyingContract?: string;
}

const utf8 = new TextEncoder();

export function keccakUtf8(text: string): Uint8Array {
  return keccak256(utf8.encode(text));
}

/** EIP-712 `encodeType` of a struct whose fields are all atomic: `Name(type1 name1,type2 name2,…)`. */
export function encodeType(name: string, fields: ReadonlyArray<{ name: string; type: string }>): string {
  return `${name}(${fields.map((field) => `${field.type} ${field.name}`).join(',')})`;
}

/** `keccak256` of an EIP-712 type string such as `Order(uint256 salt,…)`. */
export const typeHash = keccakUtf8;

/** The domain separator, with `verifyingContract` in the domain type only when given. */
export function domainSeparator(domain: Eip712Domain): Uint8Array {
  const withContract = domain.verifyingContract !== undefined;
  const words = new Uint8Array(32 * (withContract ? 5 : 4));
  const view = new DataView(words.buffer);
  words.set(
    typeHash(
      `EIP712Domain(string name,string version,uint256 chainId${withContract ? ',address verifyingContract' : ''})`,
    ),
    0,
  );
  words.set(keccakUtf8(domain.name), 32);
  words.set(keccakUtf8(domain.version), 64);
  writeUint256(domain.chainId, words, view, 96, 'chainId');
  if (withContract) writeAddress(domain.verifyingContract, words, 128, 'verifyingContract');
  return keccak256(words);
}

/**
 * A 66-byte buffer pre-filled with `0x1901 ‖ domainSeparator`; `typedDataDigest` writes the struct
 * hash into its tail, so one buffer serves every digest under that domain.
 */
export function digestPrefix(separator: Uint8Array): Uint8Array {
  const buffer = new Uint8Array(66);
  buffer[0] = 0x19;
  buffer[1] = 0x01;
  buffer.set(separator, 2);
  return buffer;
}

export function typedDataDigest(prefixed: Uint8Array, structHash: Uint8Array): Uint8Array {
  prefixed.set(structHash, 34);
  return keccak256(prefixed);
}
