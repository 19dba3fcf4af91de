// The core's frames to its gateways: one per gateway per turn, publications before the replies of
// their batch, a turn's books publications merged without moving a reply ahead of its effects.
import { describe, expect, it } from 'vitest';
import type { BookLevels } from '@pmx/events';
import type { CoreSnapshot, MatchedTrade, Publication } from '../link/core-protocol.ts';
import { ResultCode } from '../link/result-codes.ts';
import type { CoreFrame } from '../link/wire.ts';
import { LinkOutbox } from './link-outbox.ts';

const SNAPSHOT: CoreSnapshot = { status: { shards: 1, ready: [0] }, markets: [], books: [] };

function levels(market: string, bid: number): BookLevels {
  return { market, bids: [[bid, 10]], asks: [], lastTrade: 0 };
}

function books(at: number, book: BookLevels[], trades: string[] = []): Publication {
  return {
    type: 'books',
    at,
    books: book,
    trades: trades.map((tradeId) => ({ event: { tradeId } }) as unknown as MatchedTrade),
  };
}

/** An outbox whose turn ends when the test says, and the frames each gateway got. */
function rig() {
  const sent: [string, CoreFrame][] = [];
  let pending: (() => void) | undefined;
  const outbox = new LinkOutbox<string>(
    (socket, frame) => sent.push([socket, JSON.parse(frame) as CoreFrame]),
    (flush) => (pending = flush),
  );
  const endTurn = () => {
    const flush = pending;
    pending = undefined;
    flush?.();
  };
  return { outbox, sent, endTurn, scheduled: () => pending !== undefined };
}

describe('LinkOutbox', () => {
  it('sends each gateway one frame per turn: its snapshot, the publications, its own replies in order', () => {
    const { outbox, sent, endTurn } = rig();
    outbox.add('a', SNAPSHOT);
    outbox.add('b', SNAPSHOT);
    outbox.publish({ type: 'keyDeleted', apiKey: 'k' });
    outbox.reply('a', 1, { code: ResultCode.OK });
    outbox.reply('b', 7, { code: ResultCode.DUPLICATE });
    outbox.reply('a', 2, { code: ResultCode.NOT_FOUND });
    expect(sent).toEqual([]);
    endTurn();
    expect(sent).toEqual([
      [
        'a',
        {
          m: [
            ['s', SNAPSHOT],
            ['p', { type: 'keyDeleted', apiKey: 'k' }],
            ['r', 1, { code: 'OK' }],
            ['r', 2, { code: 'NOT_FOUND' }],
          ],
        },
      ],
      [
        'b',
        {
          m: [
            ['s', SNAPSHOT],
            ['p', { type: 'keyDeleted', apiKey: 'k' }],
            ['r', 7, { code: 'DUPLICATE' }],
          ],
        },
      ],
    ]);
  });

  it("merges a turn's books publications at the first one's place: each book's latest levels, every trade, the latest time", () => {
    const { outbox, sent, endTurn } = rig();
    outbox.add('a', SNAPSHOT);
    endTurn();
    sent.length = 0;
    outbox.publish(books(10, [levels('m1', 40), levels('m2', 30)], ['t1']));
    outbox.reply('a', 1, { code: ResultCode.OK });
    outbox.publish(books(12, [levels('m1', 41)], ['t2', 't3']));
    outbox.reply('a', 2, { code: ResultCode.OK });
    endTurn();
    expect(sent).toEqual([
      [
        'a',
        {
          m: [
            [
              'p',
              {
                type: 'books',
                at: 12,
                books: [levels('m1', 41), levels('m2', 30)],
                trades: [{ event: { tradeId: 't1' } }, { event: { tradeId: 't2' } }, { event: { tradeId: 't3' } }],
              },
            ],
            ['r', 1, { code: 'OK' }],
            ['r', 2, { code: 'OK' }],
          ],
        },
      ],
    ]);
  });

  it('does not merge books publications across another publication, so a market comes before its levels', () => {
    const { outbox, sent, endTurn } = rig();
    outbox.add('a', SNAPSHOT);
    outbox.publish(books(1, [levels('m1', 40)]));
    outbox.publish({ type: 'proxiesChanged' });
    outbox.publish(books(2, [levels('m1', 42)]));
    endTurn();
    const items = sent[0]![1].m;
    expect(items.map((item) => (item[0] === 'p' ? item[1].type : item[0]))).toEqual([
      's',
      'books',
      'proxiesChanged',
      'books',
    ]);
  });

  it('gives a gateway linked mid-turn every publication after its snapshot, and none before', () => {
    const { outbox, sent, endTurn } = rig();
    outbox.add('a', SNAPSHOT);
    outbox.publish(books(1, [levels('m1', 40)], ['t1']));
    outbox.add('b', SNAPSHOT);
    outbox.publish(books(2, [levels('m1', 42)], ['t2']));
    endTurn();
    const frames = Object.fromEntries(sent.map(([socket, frame]) => [socket, frame.m]));
    const trades = (items: CoreFrame['m']) =>
      items.flatMap((item) =>
        item[0] === 'p' && item[1].type === 'books' ? item[1].trades.map((t) => t.event.tradeId) : [],
      );
    expect(trades(frames.a!)).toEqual(['t1', 't2']);
    expect(trades(frames.b!)).toEqual(['t2']);
    expect(frames.b![0]![0]).toBe('s');
  });

  it('drops the replies of a gateway whose link closed, and sends nothing when a turn holds nothing', () => {
    const { outbox, sent, endTurn, scheduled } = rig();
    outbox.add('a', SNAPSHOT);
    endTurn();
    outbox.remove('a');
    outbox.reply('a', 1, { code: ResultCode.OK });
    outbox.publish({ type: 'proxiesChanged' });
    expect(scheduled()).toBe(false);
    endTurn();
    expect(sent).toHaveLength(1);
  });
});
