import { describe, expect, it } from 'vitest';
import { LEGACY_ROUTES, legacySegments, legacyTarget } from './legacy.ts';
import { ROUTES } from './routes.ts';

describe('legacy addresses', () => {
  it('maps every classic prefix to a route that exists', () => {
    const paths = new Set(ROUTES.map((r) => r.path));
    for (const [prefix, target] of Object.entries(LEGACY_ROUTES)) expect(paths.has(target), `${prefix} -> ${target}`).toBe(true);
  });

  it('reads hash routes, hash-bangs, full URLs, languages, queries and ids', () => {
    expect(legacyTarget('#/funnels')).toBe('/behavior/funnels');
    expect(legacyTarget('#!/es/analytics/cohorts/42?range=7')).toBe('/behavior/cohort');
    expect(legacyTarget('https://classic.example.com/app/#!/settings/users/9')).toBe('/user/account/users');
    expect(legacyTarget('/en/tracking/links/')).toBe('/acquisition/links');
    expect(legacyTarget('/Campaigns/123/edit')).toBe('/communication/messaging');
  });

  it('prefers the longest known prefix', () => {
    expect(legacyTarget('/settings/apps/5')).toBe('/user/account/apps');
    expect(legacyTarget('/settings/unknown')).toBe('/user/account');
    expect(legacyTarget('/tracking/channels')).toBe('/acquisition/apptracker/channels');
  });

  it('passes a current address through and knows nothing else', () => {
    expect(legacyTarget('/behavior/people')).toBe('/behavior/people');
    expect(legacyTarget('/legacy?path=x')).toBeNull();
    expect(legacyTarget('/nothing/here')).toBeNull();
    expect(legacyTarget('')).toBeNull();
    expect(legacyTarget('#/%E0%A4%A')).toBeNull();
  });

  it('drops the language, the legacy prefix and empty segments', () => {
    expect(legacySegments('/legacy/es//Funnels/')).toEqual(['funnels']);
  });
});
