// Whether a shard's Redis still holds what it stored: Redis can lose data (restarted without
// persistence, flushed, failed over to a replica that was behind), and events it had acknowledged,
// which ingest may not have read yet, are then gone. Two signs, either enough:
// - BullMQ numbers a queue's jobs from a counter in Redis that only goes up: a job numbered at or
//   below the last one means the counter went back;
// - the shard marks Redis with a token of its own at its first append. After an append failed
//   (Redis hung or away) or a reconnect, the next append checks the mark is still there. The
//   counter alone can miss a loss: appends that timed out are sent again after the reconnect and
//   use up job numbers in the emptied Redis first.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { logger } from '@pmx/config';

export class StoredEventsWatch {
  /** Set once a loss is seen: what the shard's replies then carry as their fault. */
  lost: string | undefined;
  private readonly token = randomUUID();
  private lastJobId = 0;
  private marked = false;
  private checkMark = false;

  constructor(
    private readonly shard: number,
    private readonly redis: Redis,
    private readonly markKey: string,
  ) {
    redis.on('ready', () => (this.checkMark ||= this.marked));
  }

  /** Before an append: the mark is in Redis (set at the first one). */
  async beforeAppend(): Promise<void> {
    if (this.marked) return;
    await this.redis.set(this.markKey, this.token);
    this.marked = true;
  }

  appendFailed(): void {
    this.checkMark = true;
  }

  /** After an append stored as job `jobId`, holding events `fromSeq..toSeq`. */
  async appended(jobId: string | undefined, fromSeq: number, toSeq: number): Promise<void> {
    const id = Number(jobId);
    if (Number.isSafeInteger(id)) {
      if (id <= this.lastJobId) this.loss(`job ${id} added after job ${this.lastJobId}`, fromSeq, toSeq);
      this.lastJobId = Math.max(this.lastJobId, id);
    }
    if (!this.checkMark) return;
    const mark = await this.redis.get(this.markKey);
    this.checkMark = false;
    if (mark !== this.token) this.loss('its mark in Redis is gone', fromSeq, toSeq);
  }

  private loss(sign: string, fromSeq: number, toSeq: number): void {
    if (this.lost !== undefined) return;
    this.lost = `shard ${this.shard}: its Redis queue lost stored events (${sign}, at events ${fromSeq}..${toSeq}): orders acknowledged before may be gone from it, and ingest cannot fill the gap`;
    logger('clob.shards').fatal(this.lost);
  }
}
