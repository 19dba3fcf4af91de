// Where a placed order's time goes inside the server, for operators and the bench: the wait for
// its signature check (queue and verify pool) and for its match (shard queue, matching and the
// queue append that the ack waits for). Log-bucketed histograms, O(1) per order, since the start
// or the last reset.

/** Bucket bounds grow by 5 %: a percentile is reported as its bucket's upper bound. */
const GROWTH = 1.05;
const SMALLEST_MS = 0.001;
const LOG_GROWTH = Math.log(GROWTH);
/** Enough buckets for 10 minutes; anything longer lands in the last one (the max stays exact). */
const BUCKETS = Math.ceil(Math.log(600_000 / SMALLEST_MS) / LOG_GROWTH) + 1;

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export class LatencyHistogram {
  private readonly counts = new Uint32Array(BUCKETS);
  private count = 0;
  private maxMs = 0;

  record(ms: number): void {
    const bucket = ms <= SMALLEST_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / SMALLEST_MS) / LOG_GROWTH));
    this.counts[bucket]!++;
    this.count++;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  summary(): LatencySummary {
    return {
      count: this.count,
      p50Ms: this.quantile(0.5),
      p90Ms: this.quantile(0.9),
      p99Ms: this.quantile(0.99),
      maxMs: round(this.maxMs),
    };
  }

  private quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil(q * this.count);
    let seen = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      seen += this.counts[bucket]!;
      // The last bucket also holds everything longer: its samples are reported as the maximum.
      if (seen >= rank)
        return round(bucket === BUCKETS - 1 ? this.maxMs : Math.min(this.maxMs, SMALLEST_MS * GROWTH ** bucket));
    }
    return round(this.maxMs);
  }
}

function round(ms: number): number {
  return Number(ms.toFixed(3));
}

export interface OrderLatencyReport {
  since: string;
  /** From the order's arrival in the order service to its signature's result. */
  signatureCheck: LatencySummary;
  /** From handing the order to its shard to the shard's answer (after the queue append). */
  match: LatencySummary;
  /** Both, and what lies between, for orders that reached a shard. */
  total: LatencySummary;
}

export class OrderLatency {
  private signatureCheck = new LatencyHistogram();
  private match = new LatencyHistogram();
  private total = new LatencyHistogram();
  private since: number;

  constructor(private readonly now: () => number = Date.now) {
    this.since = now();
  }

  recordSignatureCheck(ms: number): void {
    this.signatureCheck.record(ms);
  }

  /** In the core: from the order's hand-off to its shard to the shard's answer. */
  recordMatch(ms: number): void {
    this.match.record(ms);
  }

  /** In the gateway: from the signature check's start to the core's reply. */
  recordTotal(ms: number): void {
    this.total.record(ms);
  }

  report(): OrderLatencyReport {
    return {
      since: new Date(this.since).toISOString(),
      signatureCheck: this.signatureCheck.summary(),
      match: this.match.summary(),
      total: this.total.summary(),
    };
  }

  /** The report so far, then empty histograms from now. */
  reset(): OrderLatencyReport {
    const report = this.report();
    this.signatureCheck = new LatencyHistogram();
    this.match = new LatencyHistogram();
    this.total = new LatencyHistogram();
    this.since = this.now();
    return report;
  }
}
