// The band strategy of Polymarket's open-source market maker, on one market: quotes sit in bands
// of margin around a fair price, each band holding between a minimum and a maximum amount. A band
// over its maximum is cancelled down to its average (newest orders first, so the oldest keep their
// time priority); a band under its minimum is topped up to its average with one order at the
// band's average margin; a quote in no band is cancelled. Prices are cents of the first token
// (Yes): a bid buys Yes (or sells No), an ask sells Yes (or buys No). Pure: no I/O.

export interface Band {
  /** Distance from the fair price, in cents: [minMargin, maxMargin). */
  minMargin: number;
  avgMargin: number;
  maxMargin: number;
  /** Tokens resting in the band, per side. */
  minAmount: number;
  avgAmount: number;
  maxAmount: number;
}

export interface Quote {
  id: string;
  side: 'bid' | 'ask';
  /** Price in cents of Yes. */
  cents: number;
  /** Tokens still open. */
  remaining: number;
  placedAt: number;
}

export interface NewQuote {
  side: 'bid' | 'ask';
  cents: number;
  /** Whole tokens. */
  tokens: number;
}

export interface BandPlan {
  cancel: string[];
  place: NewQuote[];
}

/** Three bands as the reference maker's sample configuration shapes them (cents and tokens). */
export const DEFAULT_BANDS: Band[] = [
  { minMargin: 1, avgMargin: 2, maxMargin: 3, minAmount: 20, avgAmount: 40, maxAmount: 60 },
  { minMargin: 3, avgMargin: 4, maxMargin: 6, minAmount: 30, avgAmount: 60, maxAmount: 90 },
  { minMargin: 6, avgMargin: 8, maxMargin: 10, minAmount: 40, avgAmount: 80, maxAmount: 120 },
];

const marginOf = (quote: Quote, fair: number) => (quote.side === 'bid' ? fair - quote.cents : quote.cents - fair);

/** What to cancel and place so every band of both sides holds between its minimum and maximum. */
export function planBands(bands: readonly Band[], quotes: readonly Quote[], fair: number, minTokens: number): BandPlan {
  const cancel: string[] = [];
  const place: NewQuote[] = [];
  const inBand = new Map<Band, Quote[]>();
  for (const quote of quotes) {
    const margin = marginOf(quote, fair);
    const band = bands.find((b) => margin >= b.minMargin && margin < b.maxMargin);
    if (band === undefined) {
      cancel.push(quote.id);
      continue;
    }
    inBand.set(band, [...(inBand.get(band) ?? []), quote]);
  }
  for (const band of bands) {
    for (const side of ['bid', 'ask'] as const) {
      const held = (inBand.get(band) ?? []).filter((q) => q.side === side).sort((a, b) => b.placedAt - a.placedAt);
      let total = held.reduce((sum, q) => sum + q.remaining, 0);
      if (total > band.maxAmount) {
        for (const quote of held) {
          if (total <= band.avgAmount) break;
          cancel.push(quote.id);
          total -= quote.remaining;
        }
      }
      if (total < band.minAmount) {
        const tokens = Math.floor(band.avgAmount - total);
        const cents = side === 'bid' ? Math.floor(fair - band.avgMargin) : Math.ceil(fair + band.avgMargin);
        if (tokens >= minTokens && cents >= 1 && cents <= 99) place.push({ side, cents, tokens });
      }
    }
  }
  return { cancel, place };
}
