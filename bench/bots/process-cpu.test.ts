import { describe, expect, it } from 'vitest';
import { serviceOf } from './process-cpu.ts';

describe('serviceOf', () => {
  it('names a service started in its own folder by the folder', () => {
    expect(serviceOf('node --import tsx src/main.ts', '/opt/pmx/services/ingest')).toBe('ingest');
  });

  it("names the cluster's clob processes by their role", () => {
    expect(serviceOf('node --import tsx services/clob/src/core-main.ts', '/opt/pmx')).toBe('core');
    expect(serviceOf('node --import tsx /opt/pmx/services/clob/src/gateway-main.ts', '/')).toBe('gateway');
    expect(serviceOf('node --import tsx services/data/src/main.ts', '/opt/pmx')).toBe('data');
  });

  it('leaves out node processes that are not services', () => {
    expect(serviceOf('node --import tsx bench/bots/main.ts', '/opt/pmx')).toBeUndefined();
    expect(serviceOf('node src/main.ts', '/opt/pmx/bench')).toBeUndefined();
  });
});
