// Proxy wallets (signature types 1 and 2): the operator registers which signer controls which
// proxy; an order whose maker is a proxy must be signed by that proxy's signer.

import type { Sql } from '@pmx/db';

export interface ProxyWallet {
  proxy: string;
  signer: string;
  signatureType: 1 | 2;
}

export class ProxyWallets {
  private readonly byProxy = new Map<string, ProxyWallet>();
  private readonly bySigner = new Map<string, Set<string>>();

  constructor(private readonly sql: Sql) {}

  async load(): Promise<void> {
    const rows = await this.sql<{ proxy: string; signer: string; signature_type: number }[]>`SELECT proxy, signer, signature_type FROM proxy_wallets`;
    for (const row of rows) this.remember({ proxy: row.proxy, signer: row.signer, signatureType: row.signature_type as 1 | 2 });
  }

  private remember(wallet: ProxyWallet): void {
    const before = this.byProxy.get(wallet.proxy);
    if (before !== undefined) this.bySigner.get(before.signer)?.delete(wallet.proxy);
    this.byProxy.set(wallet.proxy, wallet);
    let proxies = this.bySigner.get(wallet.signer);
    if (proxies === undefined) this.bySigner.set(wallet.signer, (proxies = new Set()));
    proxies.add(wallet.proxy);
  }

  async register(wallet: ProxyWallet): Promise<void> {
    const record = { proxy: wallet.proxy.toLowerCase(), signer: wallet.signer.toLowerCase(), signatureType: wallet.signatureType };
    await this.sql`
      INSERT INTO proxy_wallets (proxy, signer, signature_type) VALUES (${record.proxy}, ${record.signer}, ${record.signatureType})
      ON CONFLICT (proxy) DO UPDATE SET signer = EXCLUDED.signer, signature_type = EXCLUDED.signature_type`;
    this.remember(record);
  }

  /** The proxies `signer` signs for (lower-case). */
  of(signer: string): string[] {
    return [...(this.bySigner.get(signer.toLowerCase()) ?? [])];
  }

  /** The proxies `signer` signs for with this signature type (lower-case). */
  ofType(signer: string, signatureType: 1 | 2): string[] {
    return this.of(signer).filter((proxy) => this.byProxy.get(proxy)?.signatureType === signatureType);
  }

  /** True when `maker` is a proxy of `signer` registered for this signature type. */
  controls(signer: string, maker: string, signatureType: number): boolean {
    const wallet = this.byProxy.get(maker.toLowerCase());
    return wallet !== undefined && wallet.signer === signer.toLowerCase() && wallet.signatureType === signatureType;
  }
}
