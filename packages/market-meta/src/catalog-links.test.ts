// Which catalog changes can change a market's link: markets, events, tags and their links, and a
// bulk reload; comments, profiles and series cannot (no reread for them).
import { describe, expect, it } from 'vitest';
import { affectsLinks, negRiskMarketId } from './catalog-links.ts';

describe('affectsLinks', () => {
  it('rereads the links after changes to markets, events, tags and their links, or a reload', () => {
    for (const payload of [
      'reload',
      'catalog_markets:12',
      'catalog_events:3',
      'catalog_tags:7',
      'catalog_event_markets:3:12',
      'catalog_event_tags:3:7',
      'catalog_market_tags:12:7',
    ])
      expect(affectsLinks(payload), payload).toBe(true);
    for (const payload of [
      'catalog_comments:9',
      'catalog_profiles:4',
      'catalog_series:2',
      'catalog_series_events:2:3',
      '',
    ])
      expect(affectsLinks(payload), payload).toBe(false);
  });

  it('gives the markets of one event one neg-risk group id, bytes32 hex', () => {
    expect(negRiskMarketId('42')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(negRiskMarketId('42')).toBe(negRiskMarketId('42'));
    expect(negRiskMarketId('42')).not.toBe(negRiskMarketId('43'));
  });
});
