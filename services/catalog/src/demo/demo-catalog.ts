// The deterministic demo catalog: for a seed and a scale (1 = 2,000 events, ~8,000 markets,
// 200 series, 100 tags, 2,000 profiles, 20,000 comments) the same rows every time, including
// the order-book markets (condition ids, token ids, tick sizes) the clob trades. Ids are local
// (1…n); the loader shifts them past whatever the tables already hold.

import { dateWords, DEMO_TAGS, pickTemplate, type EventDraft } from './event-templates.ts';
import { SeededRandom } from './seeded-random.ts';
import {
  ADJECTIVES,
  ANIMALS,
  COMMENT_BODIES,
  COMMENT_OPENERS,
  FIRST_NAMES,
  LAST_NAMES,
  REPLY_BODIES,
} from './vocabulary.ts';

const DAY_MS = 86_400_000;
/** The catalog's "now": fixed, so the data is the same whenever it is generated. */
export const DEMO_ANCHOR = Date.UTC(2026, 0, 1);

export interface DemoOptions {
  seed: number;
  scale: number;
}

export interface DemoTag {
  id: number;
  label: string;
  slug: string;
  createdAt: Date;
}
export interface DemoSeries {
  id: number;
  ticker: string;
  slug: string;
  title: string;
  recurrence: string;
  closed: boolean;
  createdAt: Date;
}
export interface DemoEvent {
  id: number;
  ticker: string;
  slug: string;
  title: string;
  description: string;
  resolutionSource: string;
  createdAt: Date;
  endDate: Date;
  closed: boolean;
  archived: boolean;
  image: string;
  icon: string;
  tagIds: number[];
  seriesId: number | undefined;
}
export interface DemoMarket {
  id: number;
  eventId: number;
  conditionId: string;
  questionId: string;
  question: string;
  slug: string;
  outcomes: [string, string];
  tokens: [string, string];
  tickSize: string;
  negRisk: boolean;
  volume: number;
  volume24hr: number;
  liquidity: number;
  competitive: number;
}
export interface DemoProfile {
  id: number;
  proxyWallet: string;
  baseAddress: string;
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
  xUsername: string;
  displayUsernamePublic: boolean;
  verifiedBadge: boolean;
  isMod: boolean;
  isCreator: boolean;
  createdAt: Date;
}
export interface DemoComment {
  id: number;
  body: string;
  parentEntityType: 'Event' | 'Series' | 'market';
  parentEntityId: number;
  parentCommentId: number | null;
  userAddress: string;
  replyAddress: string;
  reactionCount: number;
  reportCount: number;
  createdAt: Date;
}

export interface DemoCatalog {
  tags: DemoTag[];
  series: DemoSeries[];
  events: DemoEvent[];
  markets: DemoMarket[];
  profiles: DemoProfile[];
  comments: DemoComment[];
}

export function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/, '');
}

/** A uint256 as a decimal string, like an on-chain ERC-1155 token id. */
function tokenId(rng: SeededRandom): string {
  return BigInt(`0x${rng.hex(31)}`).toString(10);
}

function uniqueSlug(used: Set<string>, base: string, n: number): string {
  let slug = base === '' ? `item-${n}` : base;
  if (used.has(slug)) slug = `${slug}-${n.toString(36)}`;
  used.add(slug);
  return slug;
}

export function generateDemoCatalog({ seed, scale }: DemoOptions): DemoCatalog {
  const rng = new SeededRandom(seed);
  const count = (n: number) => Math.max(1, Math.round(n * scale));
  const tags: DemoTag[] = DEMO_TAGS.map((label, i) => ({
    id: i + 1,
    label,
    slug: slugOf(label),
    createdAt: new Date(DEMO_ANCHOR - 500 * DAY_MS + i * 3_600_000),
  }));
  const tagId = new Map(tags.map((t) => [t.label, t.id]));
  const seriesByTitle = new Map<string, DemoSeries>();
  const maxSeries = count(200);
  const { events, markets } = generateEvents(rng, count(2000), tagId, seriesByTitle, maxSeries);
  const series = [...seriesByTitle.values()];
  const profiles = generateProfiles(rng, count(2000));
  const comments = generateComments(rng, count(20_000), events, markets, series, profiles);
  return { tags, series, events, markets, profiles, comments };
}

function generateEvents(
  rng: SeededRandom,
  eventCount: number,
  tagId: Map<string, number>,
  seriesByTitle: Map<string, DemoSeries>,
  maxSeries: number,
) {
  const events: DemoEvent[] = [];
  const markets: DemoMarket[] = [];
  const eventSlugs = new Set<string>();
  const marketSlugs = new Set<string>();
  for (let n = 1; n <= eventCount; n++) {
    // 55 % of events are still open; closed ones ended within the last year.
    const open = rng.chance(0.55);
    const probe = pickTemplate(rng);
    const spanGuess = probe(rng, dateWords(new Date(DEMO_ANCHOR))).spanDays;
    const span = rng.int(spanGuess[0], spanGuess[1]) * DAY_MS;
    const end = open
      ? DEMO_ANCHOR + rng.int(1, Math.max(1, Math.round(span / DAY_MS))) * DAY_MS
      : DEMO_ANCHOR - rng.int(1, 365) * DAY_MS;
    const created = Math.min(end - span, DEMO_ANCHOR - rng.int(1, 30) * DAY_MS) - rng.int(0, 86_399) * 1000;
    const draft: EventDraft = probe(rng, dateWords(new Date(end)));
    const slug = uniqueSlug(eventSlugs, slugOf(draft.title), n);
    let seriesId: number | undefined;
    if (draft.series !== undefined) {
      let series = seriesByTitle.get(draft.series.title);
      if (series === undefined && seriesByTitle.size < maxSeries) {
        const seriesSlug = slugOf(draft.series.title);
        series = {
          id: seriesByTitle.size + 1,
          ticker: seriesSlug,
          slug: seriesSlug,
          title: draft.series.title,
          recurrence: draft.series.recurrence,
          closed: false,
          createdAt: new Date(created),
        };
        seriesByTitle.set(draft.series.title, series);
      }
      seriesId = series?.id;
    }
    const event: DemoEvent = {
      id: n,
      ticker: slug,
      slug,
      title: draft.title,
      description: draft.description,
      resolutionSource: draft.resolutionSource,
      createdAt: new Date(created),
      endDate: new Date(end),
      closed: !open,
      archived: !open && rng.chance(0.03),
      image: `https://static.pmx.dev/events/${slug}.png`,
      icon: `https://static.pmx.dev/events/${slug}-icon.png`,
      tagIds: [...new Set(draft.tags.map((label) => tagId.get(label)).filter((id) => id !== undefined))],
      seriesId,
    };
    if (rng.chance(0.05)) event.tagIds.push(tagId.get('Trending')!);
    events.push(event);
    for (const market of draft.markets) {
      const volume = Math.round(rng.logNormal(9, 1.8) * draft.popularity * 100) / 100;
      markets.push({
        id: markets.length + 1,
        eventId: n,
        conditionId: `0x${rng.hex(32)}`,
        questionId: `0x${rng.hex(32)}`,
        question: market.question,
        slug: uniqueSlug(
          marketSlugs,
          slugOf(draft.markets.length === 1 ? draft.title : `${slug}-${market.label}`),
          markets.length + 1,
        ),
        outcomes: market.outcomes ?? ['Yes', 'No'],
        tokens: [tokenId(rng), tokenId(rng)],
        tickSize: rng.chance(0.05) ? '0.001' : draft.tickSize,
        negRisk: draft.negRisk,
        volume,
        volume24hr: open ? Math.round(volume * rng.next() * 0.08 * 100) / 100 : 0,
        liquidity: open ? Math.round((500 + volume * rng.next() * 0.15) * 100) / 100 : 0,
        competitive: open ? Number((0.5 + rng.next() * 0.5).toFixed(4)) : 0,
      });
    }
  }
  return { events, markets };
}

function generateProfiles(rng: SeededRandom, profileCount: number): DemoProfile[] {
  const profiles: DemoProfile[] = [];
  for (let n = 1; n <= profileCount; n++) {
    const named = rng.chance(0.6);
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const pseudonym = `${rng.pick(ADJECTIVES)}-${rng.pick(ANIMALS)}`;
    profiles.push({
      id: n,
      proxyWallet: `0x${rng.hex(20)}`,
      baseAddress: `0x${rng.hex(20)}`,
      name: named ? `${first} ${last}` : '',
      pseudonym,
      bio: rng.chance(0.4)
        ? rng.pick([
            'Macro trader.',
            'Sports markets only.',
            'Crypto since 2017.',
            'Weather nerd.',
            'Polls and politics.',
            'Market maker.',
            'Here for the memes.',
          ])
        : '',
      profileImage: rng.chance(0.5) ? `https://static.pmx.dev/avatars/${n}.png` : '',
      xUsername: named && rng.chance(0.4) ? `${first}${last}`.toLowerCase().replace(/[^a-z0-9]/g, '') : '',
      displayUsernamePublic: named,
      verifiedBadge: rng.chance(0.03),
      isMod: rng.chance(0.005),
      isCreator: rng.chance(0.01),
      createdAt: new Date(DEMO_ANCHOR - rng.int(30, 900) * DAY_MS),
    });
  }
  return profiles;
}

function generateComments(
  rng: SeededRandom,
  commentCount: number,
  events: DemoEvent[],
  markets: DemoMarket[],
  series: DemoSeries[],
  profiles: DemoProfile[],
): DemoComment[] {
  const comments: DemoComment[] = [];
  const topLevel: DemoComment[] = [];
  const eventById = new Map(events.map((e) => [e.id, e]));
  // A few heavy commenters and many occasional ones; popular (low-id) entities draw more.
  const author = () => profiles[Math.floor(profiles.length * rng.next() ** 2)]!;
  const skewed = <T>(items: T[]) => items[Math.floor(items.length * rng.next() ** 1.5)]!;
  for (let n = 1; n <= commentCount; n++) {
    const by = author();
    if (topLevel.length > 20 && rng.chance(0.3)) {
      const parent = skewed(topLevel.slice(-2000));
      const createdAt = new Date(Math.min(DEMO_ANCHOR - 1000, parent.createdAt.getTime() + rng.int(60, 3 * 86_400)));
      comments.push({
        id: n,
        body: rng.pick(REPLY_BODIES),
        parentEntityType: parent.parentEntityType,
        parentEntityId: parent.parentEntityId,
        parentCommentId: parent.id,
        userAddress: by.proxyWallet,
        replyAddress: parent.userAddress,
        reactionCount: Math.floor(rng.logNormal(0, 1)),
        reportCount: 0,
        createdAt,
      });
      continue;
    }
    const kind = rng.next();
    let type: DemoComment['parentEntityType'] = 'Event';
    let entityId: number;
    let since: number;
    if (kind < 0.8 || (series.length === 0 && kind >= 0.95)) {
      const event = skewed(events);
      entityId = event.id;
      since = event.createdAt.getTime();
    } else if (kind < 0.95) {
      const market = skewed(markets);
      type = 'market';
      entityId = market.id;
      since = eventById.get(market.eventId)!.createdAt.getTime();
    } else {
      const s = rng.pick(series);
      type = 'Series';
      entityId = s.id;
      since = s.createdAt.getTime();
    }
    const comment: DemoComment = {
      id: n,
      body: `${rng.pick(COMMENT_OPENERS)} ${rng.pick(COMMENT_BODIES)}`,
      parentEntityType: type,
      parentEntityId: entityId,
      parentCommentId: null,
      userAddress: by.proxyWallet,
      replyAddress: '',
      reactionCount: Math.floor(rng.logNormal(0.5, 1.2)),
      reportCount: rng.chance(0.01) ? rng.int(1, 3) : 0,
      createdAt: new Date(since + Math.floor(rng.next() * Math.max(1, DEMO_ANCHOR - since))),
    };
    comments.push(comment);
    topLevel.push(comment);
  }
  return comments;
}
