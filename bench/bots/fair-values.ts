// The drifting fair value of each market that the crowd trades around: a random walk in cents of
// Yes (σ = drift cents per √s), kept between 10 and 90 so both outcomes' quotes stay inside (0, 1).

const LOW = 10;
const HIGH = 90;

export class FairValues {
  private readonly cents: number[];
  private last = Date.now();

  constructor(
    markets: number,
    private readonly driftCentsPerSqrtSecond: number,
    private readonly random: () => number,
  ) {
    this.cents = Array.from({ length: markets }, () => 35 + random() * 30);
  }

  /** Market `index`'s fair price of Yes in cents (fractional), moved on by the time since last asked. */
  of(index: number): number {
    this.advance();
    return this.cents[index]!;
  }

  private advance(): void {
    const now = Date.now();
    const dt = (now - this.last) / 1000;
    if (dt < 0.05) return;
    this.last = now;
    const sigma = this.driftCentsPerSqrtSecond * Math.sqrt(dt);
    for (let i = 0; i < this.cents.length; i++) {
      let next = this.cents[i]! + this.gaussian() * sigma;
      if (next < LOW) next = 2 * LOW - next;
      if (next > HIGH) next = 2 * HIGH - next;
      this.cents[i] = Math.min(HIGH, Math.max(LOW, next));
    }
  }

  /** A standard normal draw (Box–Muller). */
  private gaussian(): number {
    const u = Math.max(Number.EPSILON, this.random());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.random());
  }
}
