// Text search over events (their title, ticker and slug plus their markets' questions and
// slugs), tags (label, slug) and profiles (name, pseudonym, wallet). A query matches when every
// term (the query split on anything but letters and digits) is part of some word of the text,
// case- and accent-insensitively. Events are found through a word index (each distinct word →
// the events using it), so a query scans the vocabulary, not every event's text; both are
// rebuilt once per data version.

import type { CatalogState } from './catalog-state.ts';
import type { EventRecord, ProfileRecord, TagRecord } from './records.ts';

/** Lower case without accents: "Zürich" and "zurich" match. */
export function normaliseText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Search terms of a query, at most 10. */
export function searchTerms(q: string): string[] {
  return [
    ...new Set(
      normaliseText(q)
        .split(NON_WORD)
        .filter((t) => t !== ''),
    ),
  ].slice(0, 10);
}

function hasAll(text: string, terms: readonly string[]): boolean {
  for (const term of terms) if (!text.includes(term)) return false;
  return true;
}

export interface EventHit {
  event: EventRecord;
  /** Every term is in the event's own title: ranked before hits through its markets. */
  inTitle: boolean;
}

interface EventWords {
  /** Every distinct word, with the events whose text has it. */
  vocabulary: [string, number[]][];
  titles: Map<number, string>;
}

export class SearchIndex {
  private eventsVersion = '';
  private eventWords: EventWords = { vocabulary: [], titles: new Map() };
  private tagsVersion = -1;
  private tagTexts: { tag: TagRecord; text: string }[] = [];
  private profilesVersion = -1;
  private profileTexts: { profile: ProfileRecord; text: string }[] = [];

  constructor(private readonly state: CatalogState) {}

  events(terms: readonly string[], accept: (event: EventRecord) => boolean): EventHit[] {
    const { vocabulary, titles } = this.eventIndex();
    let found: Set<number> | undefined;
    for (const term of terms) {
      const withTerm = new Set<number>();
      for (const [word, ids] of vocabulary) {
        if (!word.includes(term)) continue;
        for (const id of ids) if (found === undefined || found.has(id)) withTerm.add(id);
      }
      found = withTerm;
      if (found.size === 0) break;
    }
    const hits: EventHit[] = [];
    for (const id of found ?? []) {
      const event = this.state.events.get(id);
      if (event === undefined || !accept(event)) continue;
      hits.push({ event, inTitle: hasAll(titles.get(id) ?? '', terms) });
    }
    return hits;
  }

  tags(terms: readonly string[]): TagRecord[] {
    const state = this.state;
    if (this.tagsVersion !== state.versions.tag) {
      this.tagTexts = [...state.tags.values()]
        .sort((a, b) => a.id - b.id)
        .map((tag) => ({ tag, text: normaliseText(`${tag.label}\n${tag.slug}`) }));
      this.tagsVersion = state.versions.tag;
    }
    return this.tagTexts.filter((t) => hasAll(t.text, terms)).map((t) => t.tag);
  }

  profiles(terms: readonly string[]): ProfileRecord[] {
    const state = this.state;
    if (this.profilesVersion !== state.versions.profile) {
      this.profileTexts = [...state.profiles.values()]
        .sort((a, b) => a.id - b.id)
        .map((profile) => ({
          profile,
          text: normaliseText(`${profile.name}\n${profile.pseudonym}\n${profile.proxyWallet}`),
        }));
      this.profilesVersion = state.versions.profile;
    }
    return this.profileTexts.filter((p) => hasAll(p.text, terms)).map((p) => p.profile);
  }

  private eventIndex(): EventWords {
    const state = this.state;
    const version = `${state.versions.event}:${state.versions.market}`;
    if (version !== this.eventsVersion) {
      const byWord = new Map<string, number[]>();
      const titles = new Map<number, string>();
      for (const event of state.events.values()) {
        const parts = [event.title, event.ticker, event.slug];
        for (const marketId of state.eventMarkets.of(event.id)) {
          const market = state.markets.get(marketId);
          if (market !== undefined) parts.push(market.question, market.slug);
        }
        titles.set(event.id, normaliseText(event.title));
        for (const word of new Set(normaliseText(parts.join(' ')).split(NON_WORD))) {
          if (word === '') continue;
          const ids = byWord.get(word);
          if (ids === undefined) byWord.set(word, [event.id]);
          else ids.push(event.id);
        }
      }
      this.eventWords = { vocabulary: [...byWord], titles };
      this.eventsVersion = version;
    }
    return this.eventWords;
  }
}
