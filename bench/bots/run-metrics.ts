// What the crowd did, second by second: orders sent and accepted, fills, cancels, rejections by
// reason, 429s, 425s (recovering), answers of unknown outcome and how they settled, and the ack
// latency of order placements (POST /order and POST /orders) — the progress line while running
// and the series the report draws.

import { percentiles } from '../report.ts';

export type RequestKind = 'place' | 'cancel' | 'read' | 'heartbeat';

/** What is counted per second (and summed over the run). */
interface Counts {
  ordersSent: number;
  accepted: number;
  fills: number;
  cancels: number;
  rejects: number;
  throttled: number;
  /** 425 answers (a market recovering after a restart), every request kind; not rejects. */
  recovering: number;
  /** Orders and cancels whose answer left their outcome unknown (5xx, no answer). */
  inDoubt: number;
  requests: number;
}

/** How the answers of unknown outcome settled, and other events of a failover, over the run. */
export interface DoubtCounts {
  /** Orders looked up after an unknown outcome: found placed (adopted), not placed. */
  ordersInDoubt: number;
  foundPlaced: number;
  foundNotPlaced: number;
  /** Cancels of unknown outcome whose orders were read again. */
  cancelsInDoubt: number;
  /** Orders answered "Duplicated." (a retried id that had landed): looked up. */
  duplicates: number;
  /** Heartbeats refused as not current or late: the switch armed again with "". */
  heartbeatRearms: number;
}

type SecondBucket = Counts & { ackMs: number[] };

export interface SecondRow extends Counts {
  /** Seconds since the run started. */
  t: number;
  ackP50Ms: number | null;
  ackP90Ms: number | null;
  ackP99Ms: number | null;
  ackMaxMs: number | null;
}

export interface MetricsSummary extends Counts {
  seconds: number;
  ordersPerSec: number;
  fillsPerSec: number;
  ackP50Ms: number | null;
  ackP99Ms: number | null;
  ackMaxMs: number | null;
  rejectsByReason: Record<string, number>;
  /** "kind: reason" → count (maker, taker, noise). */
  rejectsByKind: Record<string, number>;
  requestErrors: number;
  requestErrorsByReason: Record<string, number>;
  /** 425s by request kind (place, cancel, read, heartbeat). */
  recoveringByKind: Record<string, number>;
  doubts: DoubtCounts;
  /** With --kill-active-core-at: when the kill was sent (s since the start) and what followed. */
  kill?: KillFigures;
}

export interface KillFigures {
  /** Seconds since the run started. */
  atSec: number;
  port: number;
  pid: number;
  /** From the kill to the first accepted order sent after it, ms; null if none was. */
  nextAcceptedMs: number | null;
}

const empty = (): SecondBucket => ({
  ordersSent: 0,
  accepted: 0,
  fills: 0,
  cancels: 0,
  rejects: 0,
  throttled: 0,
  recovering: 0,
  inDoubt: 0,
  requests: 0,
  ackMs: [],
});

/** A rejection's reason without what differs per order (its id, price, size), so reasons group. */
export function reasonOf(message: string): string {
  return message
    .replace(/0x[0-9a-fA-F]{64}/g, '{id}')
    .replace(/\(\d+(\.\d+)?\)/g, '({n})')
    .replace(/: \d+(\.\d+)?$/, ': {n}')
    .slice(0, 120);
}

function ms(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  return Number(percentiles(Float64Array.from(values), [p])[0]!.toFixed(2));
}

export class RunMetrics {
  readonly startedAt = Date.now();
  private readonly buckets: SecondBucket[] = [];
  private readonly reasons = new Map<string, number>();
  private readonly kindReasons = new Map<string, number>();
  private readonly allAckMs: number[] = [];
  private errors = 0;
  private readonly failures = new Map<string, number>();
  /** Until set, nothing counts: set-up traffic (keys, funding) is not the run. */
  private counting = false;
  private measuredFrom = Date.now();
  private measuredUntil: number | undefined;
  private readonly recoveringKinds = new Map<string, number>();
  readonly doubts: DoubtCounts = {
    ordersInDoubt: 0,
    foundPlaced: 0,
    foundNotPlaced: 0,
    cancelsInDoubt: 0,
    duplicates: 0,
    heartbeatRearms: 0,
  };
  private killedAt: { at: number; port: number; pid: number } | undefined;
  private acceptedAfterKill: number | undefined;

  start(): void {
    this.counting = true;
    this.measuredFrom = Date.now();
  }

  stop(): void {
    this.counting = false;
    this.measuredUntil = Date.now();
  }

  private bucket(): SecondBucket | undefined {
    if (!this.counting) return undefined;
    const second = Math.floor((Date.now() - this.measuredFrom) / 1000);
    while (this.buckets.length <= second) this.buckets.push(empty());
    return this.buckets[second];
  }

  request(kind: RequestKind, latencyMs: number, throttled: number): void {
    const b = this.bucket();
    if (b === undefined) return;
    b.requests++;
    b.throttled += throttled;
    if (kind === 'place') {
      b.ackMs.push(latencyMs);
      this.allAckMs.push(latencyMs);
    }
  }

  /** A request that got no answer (a connection error or a timeout), by what failed. */
  requestFailed(what: string): void {
    if (!this.counting) return;
    this.errors++;
    const reason = `no answer: ${reasonOf(what)}`;
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
  }

  /** A 425 (a request's, or a batch item's "recovering"), counted in the second it came. */
  recovering(kind: RequestKind): void {
    const b = this.bucket();
    if (b === undefined) return;
    b.recovering++;
    this.recoveringKinds.set(kind, (this.recoveringKinds.get(kind) ?? 0) + 1);
  }

  /** `sentAt` (ms since the epoch) of accepted orders marks when trading came back after a kill. */
  orders(sent: number, accepted: number, sentAt?: number): void {
    const b = this.bucket();
    if (b === undefined) return;
    b.ordersSent += sent;
    b.accepted += accepted;
    const kill = this.killedAt;
    if (accepted > 0 && kill !== undefined && this.acceptedAfterKill === undefined && (sentAt ?? 0) > kill.at)
      this.acceptedAfterKill = Date.now();
  }

  /** An order or cancel whose outcome is unknown (the bot looks it up). */
  inDoubt(what: 'order' | 'cancel', count = 1): void {
    const b = this.bucket();
    if (b !== undefined) b.inDoubt += count;
    if (what === 'order') this.doubts.ordersInDoubt += count;
    else this.doubts.cancelsInDoubt += count;
  }

  doubt(what: 'foundPlaced' | 'foundNotPlaced' | 'duplicates' | 'heartbeatRearms'): void {
    this.doubts[what]++;
  }

  killed(port: number, pid: number, at = Date.now()): void {
    this.killedAt = { at, port, pid };
  }

  fills(trades: number): void {
    const b = this.bucket();
    if (b !== undefined) b.fills += trades;
  }

  cancels(count: number): void {
    const b = this.bucket();
    if (b !== undefined) b.cancels += count;
  }

  /** An order refused, by reason and by the kind of bot that sent it. */
  reject(message: string, kind: string, count = 1): void {
    const b = this.bucket();
    if (b === undefined) return;
    b.rejects += count;
    const reason = reasonOf(message);
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + count);
    const byKind = `${kind}: ${reason}`;
    this.kindReasons.set(byKind, (this.kindReasons.get(byKind) ?? 0) + count);
  }

  series(): SecondRow[] {
    return this.buckets.map((b, t) => ({
      t,
      ordersSent: b.ordersSent,
      accepted: b.accepted,
      fills: b.fills,
      cancels: b.cancels,
      rejects: b.rejects,
      throttled: b.throttled,
      recovering: b.recovering,
      inDoubt: b.inDoubt,
      requests: b.requests,
      ackP50Ms: ms(b.ackMs, 50),
      ackP90Ms: ms(b.ackMs, 90),
      ackP99Ms: ms(b.ackMs, 99),
      ackMaxMs: ms(b.ackMs, 100),
    }));
  }

  summary(): MetricsSummary {
    const seconds = Math.max(0.001, ((this.measuredUntil ?? Date.now()) - this.measuredFrom) / 1000);
    const sum = (field: keyof Counts) => this.buckets.reduce((s, b) => s + b[field], 0);
    return {
      seconds: Number(seconds.toFixed(1)),
      ordersSent: sum('ordersSent'),
      accepted: sum('accepted'),
      fills: sum('fills'),
      cancels: sum('cancels'),
      rejects: sum('rejects'),
      throttled: sum('throttled'),
      recovering: sum('recovering'),
      inDoubt: sum('inDoubt'),
      requests: sum('requests'),
      ordersPerSec: Math.round(sum('ordersSent') / seconds),
      fillsPerSec: Math.round(sum('fills') / seconds),
      ackP50Ms: ms(this.allAckMs, 50),
      ackP99Ms: ms(this.allAckMs, 99),
      ackMaxMs: ms(this.allAckMs, 100),
      rejectsByReason: Object.fromEntries([...this.reasons].sort((a, b) => b[1] - a[1])),
      rejectsByKind: Object.fromEntries([...this.kindReasons].sort((a, b) => b[1] - a[1])),
      requestErrors: this.errors,
      requestErrorsByReason: Object.fromEntries(this.failures),
      recoveringByKind: Object.fromEntries(this.recoveringKinds),
      doubts: { ...this.doubts },
      ...(this.killedAt === undefined ? {} : { kill: this.killFigures(this.killedAt) }),
    };
  }

  private killFigures(kill: { at: number; port: number; pid: number }): KillFigures {
    return {
      atSec: Number(((kill.at - this.measuredFrom) / 1000).toFixed(2)),
      port: kill.port,
      pid: kill.pid,
      nextAcceptedMs: this.acceptedAfterKill === undefined ? null : this.acceptedAfterKill - kill.at,
    };
  }

  /** One line over the last few whole seconds: rates, rejects by reason so far, ack percentiles. */
  progressLine(windowSeconds = 3): string {
    const elapsed = Math.floor((Date.now() - this.measuredFrom) / 1000);
    const done = this.buckets.slice(Math.max(0, elapsed - windowSeconds), elapsed);
    const n = Math.max(1, done.length);
    const rate = (field: 'ordersSent' | 'fills' | 'cancels') => Math.round(done.reduce((s, b) => s + b[field], 0) / n);
    const acks = done.flatMap((b) => b.ackMs);
    const reasons = [...this.reasons]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([reason, count]) => `${count}× ${reason.slice(0, 40)}`)
      .join('; ');
    return (
      `bots ${elapsed}s: ${rate('ordersSent')} orders/s, ${rate('fills')} fills/s, ${rate('cancels')} cancels/s, ` +
      `ack p50 ${ms(acks, 50) ?? '-'} ms p99 ${ms(acks, 99) ?? '-'} ms, rejects ${this.totalRejects()}` +
      (reasons === '' ? '' : ` (${reasons})`) +
      (this.errors > 0 ? `, ${this.errors} request errors` : '') +
      this.failoverPart()
    );
  }

  private failoverPart(): string {
    const recovering = this.buckets.reduce((s, b) => s + b.recovering, 0);
    const doubts = this.doubts.ordersInDoubt + this.doubts.cancelsInDoubt;
    return (recovering > 0 ? `, ${recovering} recovering (425)` : '') + (doubts > 0 ? `, ${doubts} in doubt` : '');
  }

  private totalRejects(): number {
    return [...this.reasons.values()].reduce((a, b) => a + b, 0);
  }
}
