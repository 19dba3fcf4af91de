// Public surface of @pmx/signing: order digests, signer recovery, level-1/level-2 auth, API
// credentials and the verify pool.
export { SigningInputError } from './signing-input-error.ts';
export { DEFAULT_CHAIN_ID, DEFAULT_EXCHANGE, DEFAULT_NEG_RISK_EXCHANGE } from './exchanges.ts';
export type { UintInput } from './abi-words.ts';
export {
  createOrderHasher,
  orderId,
  ORDER_TYPE,
  ORDER_EIP712_TYPES,
  ORDER_DOMAIN_NAME,
  ORDER_DOMAIN_VERSION,
  type OrderDomain,
  type OrderHasher,
  type OrderSideInput,
  type SignedOrderFields,
} from './order-digest.ts';
export {
  recoverAddress,
  recoveryBackends,
  signatureBackend,
  publicKeyToAddress,
  sameAddress,
} from './signer-recovery.ts';
export type { RecoveryBackend, RecoveryBackendName } from './recovery-backend.ts';
export { keccak256, nobleKeccak } from './keccak.ts';
export {
  clobAuthDigest,
  verifyClobAuth,
  CLOB_AUTH_TYPE,
  CLOB_AUTH_EIP712_TYPES,
  CLOB_AUTH_DOMAIN_NAME,
  CLOB_AUTH_DOMAIN_VERSION,
  CLOB_AUTH_MESSAGE,
  type ClobAuthFields,
} from './clob-auth.ts';
export { parseL2Signature, signL2, verifyL2, type L2Request } from './l2-hmac.ts';
export { newApiCredentials, type ApiCredentials } from './api-credentials.ts';
export { verifyOrders, type OrderWithSignature, type VerifyBatch, type VerifyResult } from './order-verification.ts';
export { createVerifyPool, type VerifyPool, type VerifyPoolOptions } from './verify-pool.ts';
export { SignatureCheck } from './signature-check.ts';
