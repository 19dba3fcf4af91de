import { describe, expect, it } from 'vitest';
import { postgresEndpoint } from './connection.ts';
import { databaseUrl } from './databases.ts';

describe('postgresEndpoint', () => {
  it('reads host and port from the URL', () => {
    expect(postgresEndpoint('postgres://pmx:pmx@127.0.0.1:5433/pmx')).toEqual({ host: '127.0.0.1', port: 5433 });
  });

  it('defaults to localhost:5432 and unwraps IPv6 brackets', () => {
    expect(postgresEndpoint('postgresql://u@db.internal/x')).toEqual({ host: 'db.internal', port: 5432 });
    expect(postgresEndpoint('postgres://u@[::1]:6000/x')).toEqual({ host: '::1', port: 6000 });
  });

  it('rejects other schemes without echoing the password', () => {
    expect(() => postgresEndpoint('mysql://u:secret@h/x')).toThrow(
      /expected a postgres:\/\/ URL, got mysql:\/\/u:\*\*\*@h\/x/,
    );
  });
});

describe('databaseUrl', () => {
  it('swaps only the database name', () => {
    expect(databaseUrl('postgres://pmx:pmx@127.0.0.1:5432/pmx?sslmode=disable', 'other')).toBe(
      'postgres://pmx:pmx@127.0.0.1:5432/other?sslmode=disable',
    );
  });
});
