// What the core's order steps refuse with when something below them throws: the shards, the
// replay lookup and the readiness checks speak HttpError (their statuses are the contract's), and
// the core answers in result codes only.

import { HttpError } from '@pmx/http';
import { logger } from '@pmx/config';
import { ShardStalled } from '../../shards/shard-set.ts';
import { ResultCode, type Refusal } from '../../link/result-codes.ts';

export function refusalOf(error: unknown, doing: string): Refusal {
  if (error instanceof ShardStalled) return { code: ResultCode.SHARD_STALLED, detail: error.message };
  if (error instanceof HttpError) {
    if (error.status === 425) return { code: ResultCode.RECOVERING, detail: error.message };
    if (error.status === 401) return { code: ResultCode.KEY_DELETED };
    if (error.status === 400) return { code: ResultCode.BAD_REQUEST, detail: error.message };
    if (error.status === 404) return { code: ResultCode.NOT_FOUND, detail: error.message };
    if (/halted/.test(error.message)) return { code: ResultCode.HALTED, detail: error.message };
    if (/stopping/.test(error.message)) return { code: ResultCode.STOPPING, detail: error.message };
    return { code: ResultCode.UNAVAILABLE, detail: error.message };
  }
  logger('clob.core').error({ err: error }, `${doing} failed`);
  return { code: ResultCode.INTERNAL, detail: error instanceof Error ? error.message : String(error) };
}
