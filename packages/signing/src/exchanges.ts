// The chain and exchange contracts orders are signed for by default: Polygon and Polymarket's V2
// CTF exchanges (the standard one, and the one neg-risk markets' orders name). Operators may
// configure others (PMX_CHAIN_ID, PMX_EXCHANGE_ADDRESS, PMX_NEG_RISK_EXCHANGE_ADDRESS).

export const DEFAULT_CHAIN_ID = 137;
export const DEFAULT_EXCHANGE = '0xE111180000d2663C0091e4f400237545B87B996B';
export const DEFAULT_NEG_RISK_EXCHANGE = '0xe2222d279d744050d28e00520010520000310F59';
