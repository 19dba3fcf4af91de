// Hex wire forms shared by the services.

/** A bytes32 value on the wire: `0x` and 64 hex digits, either case (condition ids, builder codes, order metadata). */
export const BYTES32_HEX = /^0x[0-9a-fA-F]{64}$/;

/** An address on the wire: `0x` and 40 hex digits, either case (no checksum required). */
export const ADDRESS_HEX = /^0x[0-9a-fA-F]{40}$/;
