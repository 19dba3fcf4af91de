// A handler's fault becomes the contract's internal_error with an incident id, never its message.
import { describe, expect, it } from 'vitest';
import { HttpError, type RequestContext } from '@pmx/http';
import { answering } from './faults.ts';

const ctx = { method: 'GET', path: '/positions' } as RequestContext<any>;

describe('answering', () => {
  it('answers a fault 500 internal_error with an incident id and no internal detail', () => {
    const handler = answering(() => {
      throw new TypeError('secret internals at /srv/app.ts:12');
    });
    let thrown: unknown;
    try {
      handler(ctx);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(500);
    expect((thrown as HttpError).message).toMatch(
      /^internal_error: the request could not be answered \(incident [0-9a-f]{8}\)$/,
    );
  });

  it('passes the caller’s errors and answers through unchanged', () => {
    const refused = new HttpError(400, 'missing_field: user');
    expect(() =>
      answering(() => {
        throw refused;
      })(ctx),
    ).toThrow(refused);
    expect(answering(() => ({ body: '[]' }))(ctx)).toEqual({ body: '[]' });
  });
});
