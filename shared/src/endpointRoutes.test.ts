import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.ts';
import { endpointRoutes, fillPath } from './endpointRoutes.ts';

describe('endpointRoutes', () => {
  it('has the method and path of every endpoint of the full table, and nothing else', () => {
    const fromTable = Object.fromEntries(Object.entries(endpoints).map(([name, e]) => [name, { method: e.method, path: e.path }]));
    expect(endpointRoutes).toEqual(fromTable);
  });

  it('lists the endpoints in the order of the full table', () => {
    expect(Object.keys(endpointRoutes)).toEqual(Object.keys(endpoints));
  });

  it('fills path parameters, encoded, and refuses a missing one', () => {
    expect(fillPath(endpointRoutes.updateTag.path, { appId: 'a b', tagId: 't/1' })).toBe('/apps/a%20b/tags/t%2F1');
    expect(() => fillPath(endpointRoutes.updateTag.path, { appId: 'a' })).toThrow(/tagId/);
  });
});
