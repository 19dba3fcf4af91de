// A fault in an account-data handler answers the contract's `internal_error: <detail>` (500), the
// detail an incident id that the log line carries too: never a stack or an internal message.

import { randomBytes } from 'node:crypto';
import { logger } from '@pmx/config';
import { HttpError, type Handler } from '@pmx/http';

export function answering(handler: Handler): Handler {
  return (ctx) => {
    try {
      return handler(ctx);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const incident = randomBytes(4).toString('hex');
      logger('data').error({ err: error, incident }, `${ctx.method} ${ctx.path} failed`);
      throw new HttpError(500, `internal_error: the request could not be answered (incident ${incident})`);
    }
  };
}
