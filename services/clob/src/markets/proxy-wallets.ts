// Proxy wallets (signature types 1 and 2): the operator registers which signer controls which
// proxy; an order whose maker is a proxy must be signed by that proxy's signer.

import { OutcomeUnknown, settledWrite, type Sql } from '@pmx/db';
import { KeyedTurns } from '../keyed-turns.ts';

export interface ProxyWallet {
  proxy: string;
  signer: string;
  signatureType: 1 | 2;
}

/** The proxy is registered to another signer or type, and the request did not ask to replace it. */
export class ProxyConflict extends Error {
  constructor(readonly current: ProxyWallet) {
    super(`proxy ${current.proxy} is registered to signer ${current.signer} (signature type ${current.signatureType}); send replace: true to move it`);
  }
}

/** Postgres did not answer the registration in time: it may or may not be written. */
export class ProxyUnsettled extends Error {
  constructor(proxy: string) {
    super(`the registration of proxy ${proxy} may or may not be written (Postgres did not answer in time); nobody controls the proxy until it is sent again`);
  }
}

export class ProxyWallets {
  private readonly byProxy = new Map<string, ProxyWallet>();
  private readonly bySigner = new Map<string, Set<string>>();
  /** Registrations of a proxy one at a time: two overlapping upserts could leave memory on one signer and the row on the other. */
  private readonly turns = new KeyedTurns();
  /** Proxies being moved to another signer: nobody controls them meanwhile. */
  private readonly moving = new Set<string>();

  constructor(
    private readonly sql: Sql,
    /** How long a registration whose answer was lost is sent again before it fails unsettled. */
    private readonly settleMs = 10_000,
  ) {}

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

  /**
   * Registers a proxy; moving one already registered to another signer or type needs `replace`
   * (a swapped argument would otherwise hand one user's balance to another without a word).
   * Resolves false when it was already registered exactly so.
   *
   * A move to another signer first takes control from the old one (no order of it for the proxy
   * is taken from then on) and runs `beforeMove`, which must close the proxy's open orders: they
   * were placed by the old signer's keys, which the new signer cannot cancel, and would go on
   * spending the proxy's balance. If it throws, nothing moves and the old signer has control back.
   */
  register(wallet: ProxyWallet, options: { replace?: boolean; beforeMove?: (proxy: string) => Promise<void> } = {}): Promise<boolean> {
    const record = { proxy: wallet.proxy.toLowerCase(), signer: wallet.signer.toLowerCase(), signatureType: wallet.signatureType };
    return this.turns.run(record.proxy, async () => {
      const current = this.byProxy.get(record.proxy);
      if (current !== undefined && current.signer === record.signer && current.signatureType === record.signatureType) return false;
      if (current !== undefined && options.replace !== true) throw new ProxyConflict(current);
      const move = current !== undefined && current.signer !== record.signer;
      if (move) this.moving.add(record.proxy);
      let unsettled = false;
      try {
        if (move) await options.beforeMove?.(record.proxy);
        // Sent again while its answer is lost (settledWrite), for up to 10 s: a lost answer used to
        // leave the old signer in control here while Postgres had the new one (its orders then
        // outlived a restart). Still unsettled, a move leaves the proxy to nobody until a retry.
        await settledWrite(
          () => this.sql`
            INSERT INTO proxy_wallets (proxy, signer, signature_type) VALUES (${record.proxy}, ${record.signer}, ${record.signatureType})
            ON CONFLICT (proxy) DO UPDATE SET signer = EXCLUDED.signer, signature_type = EXCLUDED.signature_type`,
          { deadlineMs: this.settleMs },
        );
        this.remember(record);
      } catch (error) {
        if (!(error instanceof OutcomeUnknown)) throw error;
        unsettled = move;
        throw new ProxyUnsettled(record.proxy);
      } finally {
        if (!unsettled) this.moving.delete(record.proxy);
      }
      return true;
    });
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
    if (this.moving.has(maker.toLowerCase())) return false;
    const wallet = this.byProxy.get(maker.toLowerCase());
    return wallet !== undefined && wallet.signer === signer.toLowerCase() && wallet.signatureType === signatureType;
  }
}
