// Test-only: a trader as a bot would be written from the contract — a viem wallet that signs
// ClobAuth and orders (EIP-712), makes API keys and sends level-2 requests with SVC-X headers, as
// a service's direct port takes them (or the contract's SVC_X, as the edge takes them).

import { randomBytes } from 'node:crypto';
import {
  CLOB_AUTH_EIP712_TYPES,
  DEFAULT_CHAIN_ID as CHAIN_ID,
  DEFAULT_EXCHANGE,
  DEFAULT_NEG_RISK_EXCHANGE,
  ORDER_EIP712_TYPES,
  signL2,
} from '@pmx/signing';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

export {
  DEFAULT_CHAIN_ID as CHAIN_ID,
  DEFAULT_EXCHANGE as EXCHANGE,
  DEFAULT_NEG_RISK_EXCHANGE as NEG_RISK_EXCHANGE,
} from '@pmx/signing';
const ZERO32 = `0x${'0'.repeat(64)}` as const;

export interface Credentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface Response {
  status: number;
  body: any;
  headers: Headers;
}

export interface OrderSpec {
  tokenId: string;
  side: 'BUY' | 'SELL';
  /** Base units the maker gives and takes. */
  makerAmount: bigint;
  takerAmount: bigint;
  orderType?: 'GTC' | 'GTD' | 'FOK' | 'FAK';
  expiration?: number;
  postOnly?: boolean;
  maker?: string;
  signatureType?: number;
  owner?: string;
  /** The order's own timestamp in ms (default: now). */
  timestamp?: number;
  /** Signed for the neg-risk exchange, as a neg-risk market's orders must be. */
  negRisk?: boolean;
  /** The builder code (bytes32) the order carries; zero (none) by default. */
  builder?: string;
}

/** BUY `size` tokens at `price` (decimal string) → maker and taker amounts. */
export function limit(
  side: 'BUY' | 'SELL',
  price: string,
  size: number,
): { side: 'BUY' | 'SELL'; makerAmount: bigint; takerAmount: bigint } {
  const sizeUnits = BigInt(Math.round(size * 1_000_000));
  const [whole, fraction = ''] = price.split('.');
  const priceMicros = BigInt(whole! + fraction.padEnd(6, '0'));
  const collateral = (sizeUnits * priceMicros) / 1_000_000n;
  return side === 'BUY'
    ? { side, makerAmount: collateral, takerAmount: sizeUnits }
    : { side, makerAmount: sizeUnits, takerAmount: collateral };
}

export class Trader {
  readonly account: PrivateKeyAccount;
  credentials: Credentials | undefined;

  constructor(
    /** The server; a test may point it at a restarted one. */
    public baseUrl: string,
    privateKey = generatePrivateKey(),
    /** '-' for a service's direct port (uWS drops '_' names); '_' as the contract writes them, for the edge. */
    private readonly separator: '_' | '-' = '-',
  ) {
    this.account = privateKeyToAccount(privateKey);
  }

  private named(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.replaceAll('_', this.separator), value]),
    );
  }

  get address(): string {
    return this.account.address;
  }

  async l1Headers(nonce = 0, timestamp = Math.floor(Date.now() / 1000)): Promise<Record<string, string>> {
    const signature = await this.account.signTypedData({
      domain: { name: 'ClobAuthDomain', version: '1', chainId: CHAIN_ID },
      types: CLOB_AUTH_EIP712_TYPES,
      primaryType: 'ClobAuth',
      message: {
        address: this.account.address,
        timestamp: String(timestamp),
        nonce: BigInt(nonce),
        message: 'This message attests that I control the given wallet',
      },
    });
    return this.named({
      SVC_ADDRESS: this.account.address,
      SVC_SIGNATURE: signature,
      SVC_TIMESTAMP: String(timestamp),
      SVC_NONCE: String(nonce),
    });
  }

  async createApiKey(nonce = 0): Promise<Credentials> {
    const response = await this.send('POST', '/auth/api-key', { headers: await this.l1Headers(nonce) });
    if (response.status !== 200) throw new Error(`create api key: ${response.status} ${JSON.stringify(response.body)}`);
    this.credentials = response.body as Credentials;
    return this.credentials;
  }

  l2Headers(
    method: string,
    path: string,
    body = '',
    timestamp = Math.floor(Date.now() / 1000),
  ): Record<string, string> {
    const c = this.credentials;
    if (c === undefined) throw new Error('no API key yet');
    return this.named({
      SVC_ADDRESS: this.account.address,
      SVC_API_KEY: c.apiKey,
      SVC_PASSPHRASE: c.passphrase,
      SVC_TIMESTAMP: String(timestamp),
      SVC_SIGNATURE: signL2(c.secret, timestamp, method, path, body),
    });
  }

  async signOrder(spec: OrderSpec): Promise<Record<string, unknown>> {
    const order = {
      salt: BigInt(`0x${randomBytes(6).toString('hex')}`),
      maker: (spec.maker ?? this.account.address) as `0x${string}`,
      signer: this.account.address,
      tokenId: BigInt(spec.tokenId),
      makerAmount: spec.makerAmount,
      takerAmount: spec.takerAmount,
      side: spec.side === 'BUY' ? 0 : 1,
      signatureType: spec.signatureType ?? 0,
      timestamp: BigInt(spec.timestamp ?? Date.now()),
      metadata: ZERO32,
      builder: (spec.builder ?? ZERO32) as `0x${string}`,
    };
    const signature = await this.account.signTypedData({
      domain: {
        name: 'Polymarket CTF Exchange',
        version: '2',
        chainId: CHAIN_ID,
        verifyingContract: spec.negRisk === true ? DEFAULT_NEG_RISK_EXCHANGE : DEFAULT_EXCHANGE,
      },
      types: ORDER_EIP712_TYPES,
      primaryType: 'Order',
      message: order,
    });
    return {
      order: {
        salt: Number(order.salt),
        maker: order.maker,
        signer: order.signer,
        tokenId: spec.tokenId,
        makerAmount: String(spec.makerAmount),
        takerAmount: String(spec.takerAmount),
        side: spec.side,
        expiration: String(spec.expiration ?? 0),
        signatureType: order.signatureType,
        timestamp: String(order.timestamp),
        metadata: ZERO32,
        builder: order.builder,
        signature,
      },
      owner: spec.owner ?? this.credentials?.apiKey,
      orderType: spec.orderType ?? 'GTC',
      ...(spec.postOnly === undefined ? {} : { postOnly: spec.postOnly }),
    };
  }

  async placeOrder(spec: OrderSpec): Promise<Response> {
    return this.authed('POST', '/order', await this.signOrder(spec));
  }

  /** A level-2 request with a JSON body (or raw text). */
  authed(method: string, pathWithQuery: string, body?: unknown): Promise<Response> {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const path = pathWithQuery.split('?')[0]!;
    return this.send(method, pathWithQuery, {
      headers: this.l2Headers(method, path, text),
      body: text === '' ? undefined : text,
    });
  }

  async send(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Response> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...init.headers },
      body: init.body,
    });
    return readReply(response);
  }
}

/** A response's status, headers and body: parsed JSON, or the text when it is not JSON. */
export async function readReply(response: globalThis.Response): Promise<Response> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers };
}
