// A key several records may share (a profile's base address: one signer, several proxy wallets)
// finds the lowest id among its holders, whatever order they came in, and stays found while any
// holder keeps it.
import { describe, expect, it } from 'vitest';
import { RecordTable } from './record-table.ts';

interface Row {
  id: number;
  wallet: string;
  base: string | null;
}

const table = () => new RecordTable<Row, 'wallet' | 'base'>({ wallet: (r) => r.wallet, base: (r) => r.base }, ['base']);

describe('RecordTable', () => {
  it('keeps a shared key found while another record still holds it, by the lowest id', () => {
    for (const order of [
      [1, 2, 3],
      [3, 2, 1],
      [2, 3, 1],
    ]) {
      const rows = table();
      for (const id of order) rows.put({ id, wallet: `w${id}`, base: 's' });
      expect([order, rows.find('base', 's')?.id]).toEqual([order, 1]);
      // Record 1 moves to another base: 2 is found for 's' (the key is not lost with 1).
      rows.put({ id: 1, wallet: 'w1', base: 't' });
      expect([rows.find('base', 's')?.id, rows.find('base', 't')?.id]).toEqual([2, 1]);
      rows.drop(2);
      expect(rows.find('base', 's')?.id).toBe(3);
      rows.put({ id: 3, wallet: 'w3', base: null });
      expect(rows.find('base', 's')).toBeUndefined();
    }
  });

  it('reads only the records that share a value when one lets go of it, not every record', () => {
    let reads = 0;
    const rows = new RecordTable<Row, 'wallet' | 'base'>({ wallet: (r) => r.wallet, base: (r) => (reads++, r.base) }, [
      'base',
    ]);
    const count = 2_000;
    for (let id = 1; id <= count; id++) rows.put({ id, wallet: `w${id}`, base: `b${id}` });
    reads = 0;
    // Every profile edited once (a name, say), as one batch of updates brings them: each drop and
    // put reads its own record's keys, never the whole table (a scan per drop read 4 million).
    for (let id = 1; id <= count; id++) rows.put({ id, wallet: `w${id}`, base: `b${id}` });
    expect(reads).toBeLessThanOrEqual(2 * count);
    expect(rows.find('base', 'b7')?.id).toBe(7);
  });

  it('leaves a unique key to the record that took it last (two slugs swapped within one batch)', () => {
    const rows = table();
    rows.put({ id: 1, wallet: 'a', base: null });
    rows.put({ id: 2, wallet: 'b', base: null });
    rows.put({ id: 1, wallet: 'b', base: null });
    rows.put({ id: 2, wallet: 'a', base: null });
    expect([rows.find('wallet', 'a')?.id, rows.find('wallet', 'b')?.id]).toEqual([2, 1]);
  });
});
