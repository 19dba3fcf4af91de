import { describe, expect, it } from 'vitest';
import { ResponseRelay } from './response-relay.ts';

function relay() {
  const out: Buffer[] = [];
  const events: string[] = [];
  const r = new ResponseRelay({
    write: (bytes) => (out.push(Buffer.from(bytes)), true),
    complete: () => events.push('complete'),
    unframed: (upgraded) => events.push(upgraded ? 'upgraded' : 'unframed'),
  });
  return { r, events, passed: () => Buffer.concat(out).toString('latin1') };
}

const answer = (body: string, extra = '') => `HTTP/1.1 200 OK\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;

describe('response relay', () => {
  it('passes answers on byte for byte and says when each is whole, however the bytes are cut', () => {
    const parts = [
      answer('{"a":1}'),
      'HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n',
      answer('second!', 'content-length-ish: 1\r\n'),
    ];
    const stream = parts.join('');
    const ends = parts.map((_, i) => parts.slice(0, i + 1).join('').length);
    for (let cut = 1; cut < stream.length; cut++) {
      const { r, events, passed } = relay();
      r.push(Buffer.from(stream.slice(0, cut), 'latin1'));
      // Whole after the first piece: exactly the answers that ended in it.
      expect(events).toHaveLength(ends.filter((end) => end <= cut).length);
      r.push(Buffer.from(stream.slice(cut), 'latin1'));
      expect(passed()).toBe(stream);
      expect(events).toHaveLength(3);
    }
  });

  it('waits past an interim 100 for the final answer', () => {
    const { r, events } = relay();
    r.push(Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'));
    expect(events).toEqual([]);
    r.push(Buffer.from(answer('ok')));
    expect(events).toHaveLength(1);
  });

  it('turns into a plain pipe after a 101, or an answer it cannot frame', () => {
    const upgraded = relay();
    upgraded.r.push(Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\x81\x05hello'));
    expect(upgraded.events).toEqual(['upgraded']);
    expect(upgraded.passed()).toContain('\x81\x05hello');

    for (const head of [
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n',
      'HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n',
    ]) {
      const { r, events, passed } = relay();
      r.push(Buffer.from(`${head}5\r\nabcde\r\n0\r\n\r\n`));
      r.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'));
      expect(events).toEqual(['unframed']);
      expect(passed()).toBe(`${head}5\r\nabcde\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n`);
    }
  });
});
