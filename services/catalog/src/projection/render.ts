// Records to the contract's JSON shapes, serialised once per record and cached until the
// record (or something it shows) changes, so a read is a Map lookup and a string join.
// Field order follows the contract; extra fields carry the real service's names.

import type { CatalogState } from './catalog-state.ts';
import { recordsOf } from './record-table.ts';
import type { CommentRecord, EventRecord, MarketRecord, ProfileRecord, SeriesRecord, TagRecord } from './records.ts';

/** '[a,b,c]' from already-serialised items. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}

/** Appends `"name":<json>` to a serialised object. */
function withField(objectJson: string, name: string, valueJson: string): string {
  return `${objectJson.slice(0, -1)}${objectJson.length > 2 ? ',' : ''}"${name}":${valueJson}}`;
}

function equalSplit(outcomes: number): string[] {
  const share = outcomes > 0 ? String(Number((1 / outcomes).toFixed(4))) : '0';
  return Array.from({ length: outcomes }, () => share);
}

export class CatalogRenderer {
  constructor(private readonly state: CatalogState) {}

  tag(tag: TagRecord): string {
    return (tag.cache.detail ??= JSON.stringify({
      id: String(tag.id),
      label: tag.label,
      slug: tag.slug,
      createdAt: tag.createdAt,
      updatedAt: tag.updatedAt,
      requiresTranslation: tag.requiresTranslation,
    }));
  }

  /** A catalog market without its events (as inside an event). */
  marketBare(market: MarketRecord): string {
    if (market.cache.bare !== undefined) return market.cache.bare;
    const prices =
      market.resolvedPrices ??
      (market.conditionId !== null ? this.state.prices.get(market.conditionId) : undefined) ??
      equalSplit(market.outcomes.length);
    return (market.cache.bare = JSON.stringify({
      id: String(market.id),
      question: market.question,
      conditionId: market.conditionId ?? '',
      slug: market.slug,
      resolutionSource: market.resolutionSource,
      startDate: market.startDate ?? market.createdAt,
      endDate: market.endDate ?? undefined,
      image: market.image,
      icon: market.icon,
      description: market.description,
      outcomes: JSON.stringify(market.outcomes),
      outcomePrices: JSON.stringify(prices),
      clobTokenIds: JSON.stringify(market.tokens),
      active: market.active,
      closed: market.closed,
      archived: market.archived,
      createdAt: market.createdAt,
      updatedAt: market.updatedAt,
      questionID: market.questionId,
      closedTime: market.closedTime ?? undefined,
      volume: String(market.volume),
      volumeNum: market.volume,
      volume24hr: market.volume24hr,
      liquidity: String(market.liquidity),
      liquidityNum: market.liquidity,
      competitive: market.competitive,
      enableOrderBook: market.tokens.length > 0,
      acceptingOrders: market.acceptingOrders,
      orderPriceMinTickSize: market.tickSize === null ? undefined : Number(market.tickSize),
      orderMinSize: market.minOrderSize ?? undefined,
      negRisk: market.negRisk,
    }));
  }

  /** List shape: events as {id, ticker, slug, title}. */
  marketList(market: MarketRecord): string {
    return (market.cache.list ??= withField(
      this.marketBare(market),
      'events',
      jsonArray(this.eventsOf(market).map((e) => this.eventShort(e))),
    ));
  }

  /** Single-result shape: events with the summary fields. */
  marketDetail(market: MarketRecord): string {
    return (market.cache.detail ??= withField(
      this.marketBare(market),
      'events',
      jsonArray(this.eventsOf(market).map((e) => this.eventSummary(e))),
    ));
  }

  eventShort(event: EventRecord): string {
    return (event.cache.short ??= JSON.stringify({
      id: String(event.id),
      ticker: event.ticker,
      slug: event.slug,
      title: event.title,
    }));
  }

  /** The event summary inside a single market and inside a series. */
  eventSummary(event: EventRecord): string {
    return (event.cache.summary ??= JSON.stringify(eventFields(event, true)));
  }

  private eventHead(event: EventRecord, single: boolean): Record<string, unknown> {
    const totals = this.state.aggregates(event.id);
    return {
      ...eventFields(event, single),
      closedTime: event.closedTime ?? undefined,
      volume: totals.volume,
      volume24hr: totals.volume24hr,
      liquidity: totals.liquidity,
      competitive: totals.competitive,
    };
  }

  /** List shape: id through updatedAt, and tags. */
  eventList(event: EventRecord): string {
    return (event.cache.list ??= withField(
      JSON.stringify(this.eventHead(event, false)),
      'tags',
      this.tagsOfEvent(event),
    ));
  }

  /** Single-result shape: also creationDate, markets (without events), series (without events), eventMetadata. */
  eventDetail(event: EventRecord): string {
    if (event.cache.detail !== undefined) return event.cache.detail;
    let json = withField(JSON.stringify(this.eventHead(event, true)), 'tags', this.tagsOfEvent(event));
    json = withField(json, 'markets', jsonArray(this.marketsOf(event).map((m) => this.marketBare(m))));
    json = withField(json, 'series', jsonArray(this.seriesOf(event).map((s) => this.seriesBare(s))));
    json = withField(json, 'eventMetadata', JSON.stringify(event.eventMetadata ?? {}));
    return (event.cache.detail = json);
  }

  seriesBare(series: SeriesRecord): string {
    return (series.cache.bare ??= JSON.stringify({
      id: String(series.id),
      ticker: series.ticker,
      slug: series.slug,
      title: series.title,
      seriesType: series.seriesType,
      recurrence: series.recurrence,
      image: series.image,
      icon: series.icon,
      active: series.active,
      closed: series.closed,
      archived: series.archived,
      createdAt: series.createdAt,
      updatedAt: series.updatedAt,
    }));
  }

  /** A series with its events (summary fields); the same in lists and alone. */
  series(series: SeriesRecord): string {
    if (series.cache.detail !== undefined) return series.cache.detail;
    const events = linked(this.state.seriesEvents.of(series.id), this.state.events);
    return (series.cache.detail = withField(
      this.seriesBare(series),
      'events',
      jsonArray(events.map((e) => this.eventSummary(e))),
    ));
  }

  publicProfile(profile: ProfileRecord): string {
    return (profile.cache.detail ??= JSON.stringify({
      createdAt: profile.createdAt,
      proxyWallet: profile.proxyWallet,
      profileImage: profile.profileImage,
      bio: profile.bio,
      pseudonym: profile.pseudonym,
      name: profile.name,
      xUsername: profile.xUsername,
      displayUsernamePublic: profile.displayUsernamePublic,
      verifiedBadge: profile.verifiedBadge,
      users: [{ id: String(profile.id), creator: profile.isCreator, mod: profile.isMod }],
    }));
  }

  /** A comment without its replies field (appended by comment()/reply()). */
  private commentBody(comment: CommentRecord): string {
    if (comment.cache.bare !== undefined) return comment.cache.bare;
    const profile = this.state.profileByAddress(comment.userAddress);
    return (comment.cache.bare = JSON.stringify({
      id: String(comment.id),
      body: comment.body,
      parentEntityType: comment.parentEntityType,
      parentEntityID: comment.parentEntityId,
      parentCommentID: comment.parentCommentId === null ? '' : String(comment.parentCommentId),
      userAddress: comment.userAddress,
      replyAddress: comment.replyAddress,
      createdAt: comment.createdAt,
      updatedAt: comment.updatedAt,
      profile: {
        name: profile?.name ?? '',
        pseudonym: profile?.pseudonym ?? '',
        bio: profile?.bio ?? '',
        proxyWallet: profile?.proxyWallet ?? comment.userAddress,
        baseAddress: profile?.baseAddress ?? comment.userAddress,
        profileImage: profile?.profileImage ?? '',
        displayUsernamePublic: profile?.displayUsernamePublic ?? false,
        isMod: profile?.isMod ?? false,
        isCreator: profile?.isCreator ?? false,
        profileImageOptimized: {},
        positions: this.positionsOf(comment),
      },
      reactions: comment.reactions,
      reportCount: comment.reportCount,
      reactionCount: comment.reactionCount,
      replyCount: this.state.replies.get(comment.id)?.size ?? 0,
    }));
  }

  /** A reply, or any comment shown without its thread: `replies` is empty. */
  reply(comment: CommentRecord): string {
    return (comment.cache.short ??= withField(this.commentBody(comment), 'replies', '[]'));
  }

  /** A top-level comment with its replies, oldest first. */
  comment(comment: CommentRecord): string {
    if (comment.cache.list !== undefined) return comment.cache.list;
    return (comment.cache.list = withField(
      this.commentBody(comment),
      'replies',
      jsonArray(this.repliesOf(comment).map((r) => this.reply(r))),
    ));
  }

  repliesOf(comment: CommentRecord): CommentRecord[] {
    return [...recordsOf(this.state.replies.get(comment.id) ?? [], this.state.comments)].sort(oldestFirst);
  }

  private positionsOf(comment: CommentRecord): { tokenId: string; positionSize: string }[] {
    const held = this.state.holdings.get(comment.userAddress);
    if (held === undefined) return [];
    const out: { tokenId: string; positionSize: string }[] = [];
    for (const marketId of this.state.marketsOfEntity(comment.parentEntityType, comment.parentEntityId)) {
      for (const tokenId of this.state.markets.get(marketId)?.tokens ?? []) {
        const size = held.get(tokenId);
        if (size !== undefined) out.push({ tokenId, positionSize: size });
      }
    }
    return out;
  }

  private tagsOfEvent(event: EventRecord): string {
    return jsonArray(linked(this.state.eventTags.of(event.id), this.state.tags).map((t) => this.tag(t)));
  }

  private eventsOf(market: MarketRecord): EventRecord[] {
    return linked(this.state.eventMarkets.to(market.id), this.state.events);
  }

  private marketsOf(event: EventRecord): MarketRecord[] {
    return linked(this.state.eventMarkets.of(event.id), this.state.markets);
  }

  private seriesOf(event: EventRecord): SeriesRecord[] {
    return linked(this.state.seriesEvents.to(event.id), this.state.series);
  }
}

/** The records of linked ids (skipping any not loaded), by id. */
function linked<T extends { id: number }>(ids: Iterable<number>, table: { get(id: number): T | undefined }): T[] {
  return [...recordsOf(ids, table)].sort(byId);
}

/** The contract's event fields, id through updatedAt; creationDate only where it is shown. */
function eventFields(event: EventRecord, withCreationDate: boolean): Record<string, unknown> {
  return {
    id: String(event.id),
    ticker: event.ticker,
    slug: event.slug,
    title: event.title,
    description: event.description,
    resolutionSource: event.resolutionSource,
    startDate: event.startDate ?? event.creationDate,
    creationDate: withCreationDate ? event.creationDate : undefined,
    endDate: event.endDate ?? undefined,
    image: event.image,
    icon: event.icon,
    active: event.active,
    closed: event.closed,
    archived: event.archived,
    createdAt: event.createdAt,
    updatedAt: event.updatedAt,
  };
}

function byId(a: { id: number }, b: { id: number }): number {
  return a.id - b.id;
}

function oldestFirst(a: CommentRecord, b: CommentRecord): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id;
}
