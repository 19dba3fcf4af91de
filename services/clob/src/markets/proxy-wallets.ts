// Proxy wallets (signature types 1 and 2): the operator registers which signer controls which
// proxy; an order whose maker is a proxy must be signed by that proxy's signer.

import { OutcomeUnknown, settledWrite, type Sql } from '@pmx/db';
import { KeyedTurns } from '../keyed-turns.ts';

export interface ProxyWallet {
  proxy: string;
  signer: string;
  signatureType: 1 | 2;
}

/** A span in which `signer` signed for `proxy`: ms, `from` inclusive, `until` exclusive. */
export interface ProxySpan {
  proxy: string;
  from: number;
  until: number;
}

/** The proxy is registered to another signer or type, and the request did not ask to replace it. */
export class ProxyConflict extends Error {
  constructor(readonly current: ProxyWallet) {
    super(
      `proxy ${current.proxy} is registered to signer ${current.signer} (signature type ${current.signatureType}); send replace: true to move it`,
    );
  }
}

/** Postgres did not answer the registration in time: it may or may not be written. */
export class ProxyUnsettled extends Error {
  constructor(proxy: string) {
    super(
      `the registration of proxy ${proxy} may or may not be written (Postgres did not answer in time); nobody controls the proxy until it is sent again`,
    );
  }
}

export class ProxyWallets {
  private readonly byProxy = new Map<string, ProxyWallet>();
  private readonly bySigner = new Map<string, Set<string>>();
  /** When each proxy's current signer took it (ms; -Infinity: from its registration on). */
  private readonly since = new Map<string, number>();
  /** Past signers' spans, by signer (proxy_wallet_history). */
  private readonly past = new Map<string, ProxySpan[]>();
  /** Registrations of a proxy one at a time: two overlapping upserts could leave memory on one signer and the row on the other. */
  private readonly turns = new KeyedTurns();
  /** Proxies being moved to another signer: nobody controls them meanwhile. */
  private readonly moving = new Set<string>();

  constructor(
    private readonly sql: Sql,
    /** How long a registration whose answer was lost is sent again before it fails unsettled. */
    private readonly settleMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async load(): Promise<void> {
    // Epoch ms as text (±Infinity for ±infinity): a Date cannot hold '-infinity'.
    const ms = (column: string) =>
      this.sql.unsafe(
        `CASE WHEN isfinite(${column}) THEN (extract(epoch FROM ${column}) * 1000)::bigint::text WHEN ${column} > now() THEN 'Infinity' ELSE '-Infinity' END`,
      );
    const [rows, history] = await Promise.all([
      this.sql<
        { proxy: string; signer: string; signature_type: number; since: string }[]
      >`SELECT proxy, signer, signature_type, ${ms('since')} AS since FROM proxy_wallets`,
      this.sql<
        { proxy: string; signer: string; since: string; until: string }[]
      >`SELECT proxy, signer, ${ms('since')} AS since, ${ms('until')} AS until FROM proxy_wallet_history`,
    ]);
    for (const row of rows)
      this.remember(
        { proxy: row.proxy, signer: row.signer, signatureType: row.signature_type as 1 | 2 },
        Number(row.since),
      );
    for (const row of history)
      this.rememberPast(row.signer, { proxy: row.proxy, from: Number(row.since), until: Number(row.until) });
  }

  private rememberPast(signer: string, span: ProxySpan): void {
    let spans = this.past.get(signer);
    if (spans === undefined) this.past.set(signer, (spans = []));
    spans.push(span);
  }

  private remember(wallet: ProxyWallet, since: number): void {
    const before = this.byProxy.get(wallet.proxy);
    if (before !== undefined) this.bySigner.get(before.signer)?.delete(wallet.proxy);
    this.byProxy.set(wallet.proxy, wallet);
    this.since.set(wallet.proxy, since);
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
  register(
    wallet: ProxyWallet,
    options: { replace?: boolean; beforeMove?: (proxy: string) => Promise<void> } = {},
  ): Promise<boolean> {
    const record = {
      proxy: wallet.proxy.toLowerCase(),
      signer: wallet.signer.toLowerCase(),
      signatureType: wallet.signatureType,
    };
    return this.turns.run(record.proxy, async () => {
      const current = this.byProxy.get(record.proxy);
      if (current !== undefined && current.signer === record.signer && current.signatureType === record.signatureType)
        return false;
      if (current !== undefined && options.replace !== true) throw new ProxyConflict(current);
      const move = current !== undefined && current.signer !== record.signer;
      if (move) this.moving.add(record.proxy);
      let unsettled = false;
      try {
        if (move) await options.beforeMove?.(record.proxy);
        // The moment of a move, once the old signer's orders are closed: its trades matched before,
        // the new signer's from then on (proxy_wallet_history, migration 016). Trades are stamped
        // in ms: the moment is the next ms, and the new signer takes control only once it has come,
        // so no trade of either shares it (a trade matched in the ms of the move would go to the
        // new signer).
        const at = this.now() + 1;
        const atTime = new Date(at);
        // Sent again while its answer is lost (settledWrite), for up to 10 s: a lost answer must not
        // leave the old signer in control here while Postgres has the new one (its orders would
        // outlive a restart). Still unsettled, a move leaves the proxy to nobody until a retry.
        // Sent again, it finds the signer moved already and changes nothing.
        await settledWrite(
          () =>
            this.sql.begin(async (tx) => {
              // The row made (a first registration) and locked first, so a registration or a move
              // by another front end meanwhile is seen as done, and the signer it set gets its span.
              await tx`
                INSERT INTO proxy_wallets (proxy, signer, signature_type) VALUES (${record.proxy}, ${record.signer}, ${record.signatureType})
                ON CONFLICT DO NOTHING`;
              await tx`SELECT 1 FROM proxy_wallets WHERE proxy = ${record.proxy} FOR UPDATE`;
              await tx`
                INSERT INTO proxy_wallet_history (proxy, signer, since, until)
                SELECT proxy, signer, since, ${atTime} FROM proxy_wallets WHERE proxy = ${record.proxy} AND signer <> ${record.signer}
                ON CONFLICT DO NOTHING`;
              await tx`
                UPDATE proxy_wallets SET signer = ${record.signer}, signature_type = ${record.signatureType},
                  since = CASE WHEN signer <> ${record.signer} THEN ${atTime}::timestamptz ELSE since END
                 WHERE proxy = ${record.proxy}`;
            }),
          { deadlineMs: this.settleMs },
        );
        while (this.now() < at) await new Promise((resolve) => setTimeout(resolve, 1));
        if (move)
          this.rememberPast(current.signer, {
            proxy: record.proxy,
            from: this.since.get(record.proxy) ?? Number.NEGATIVE_INFINITY,
            until: at,
          });
        this.remember(record, move ? at : (this.since.get(record.proxy) ?? Number.NEGATIVE_INFINITY));
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

  /** The spans in which `signer` signed for a proxy: those of now, and those before a move away. */
  spansOf(signer: string): ProxySpan[] {
    const now = this.of(signer).map((proxy) => ({
      proxy,
      from: this.since.get(proxy) ?? Number.NEGATIVE_INFINITY,
      until: Number.POSITIVE_INFINITY,
    }));
    return [...now, ...(this.past.get(signer.toLowerCase()) ?? [])];
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
