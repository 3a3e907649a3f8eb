import { describe, expect, it } from 'vitest';
import { ROLE_GRANTS, type BuiltInRole } from '@gd/shared/permissions/roles';
import { can, disallowedFor, subjectFor } from '@gd/shared/permissions/can';
import { anyBlock, homeBlocks, shortcuts } from './blocks.ts';
import { changeColor, changeOf, formatChange, formatDays, formatFigure, previousRange } from './figures.ts';

describe('the change of a figure on the previous period', () => {
  it('is a ratio up or down, "no previous data" when the previous period is zero, "no change" when equal', () => {
    expect(changeOf({ current: 150, previous: 100 })).toEqual({ kind: 'up', ratio: 0.5 });
    expect(changeOf({ current: 75, previous: 100 })).toEqual({ kind: 'down', ratio: -0.25 });
    expect(changeOf({ current: 0, previous: 40 })).toEqual({ kind: 'down', ratio: -1 });
    expect(changeOf({ current: 12, previous: 0 })).toEqual({ kind: 'noPrevious' });
    expect(changeOf({ current: 0, previous: 0 })).toEqual({ kind: 'noPrevious' });
    expect(changeOf({ current: 7, previous: 7 })).toEqual({ kind: 'same' });
    // Negative revenue (refunds) before: the sign of the change follows the movement.
    expect(changeOf({ current: 10, previous: -10 })).toEqual({ kind: 'up', ratio: 2 });
  });

  it('is coloured teal up, red down, grey otherwise', () => {
    expect(changeColor({ kind: 'up', ratio: 0.1 })).toBe('teal');
    expect(changeColor({ kind: 'down', ratio: -0.1 })).toBe('red');
    expect(changeColor({ kind: 'same' })).toBe('gray');
    expect(changeColor({ kind: 'noPrevious' })).toBe('gray');
  });

  it('reads as a signed percentage with one decimal at most, in the language', () => {
    expect(formatChange('en', { kind: 'up', ratio: 0.125 })).toBe('+12.5%');
    expect(formatChange('en', { kind: 'down', ratio: -0.25 })).toBe('-25%');
    expect(formatChange('en', { kind: 'up', ratio: 2 })).toBe('+200%');
    expect(formatChange('es', { kind: 'up', ratio: 0.125 }).replace(/\s/g, ' ')).toBe('+12,5 %');
    expect(formatChange('en', { kind: 'up', ratio: 0.0001 })).toBe('+<0.1%');
    expect(formatChange('en', { kind: 'down', ratio: -0.0001 })).toBe('-<0.1%');
  });
});

describe('figure values', () => {
  it('shows counts as grouped integers and revenue with cents, in the answer currency when it has one', () => {
    expect(formatFigure('en', 'people', 12345, null)).toBe('12,345');
    expect(formatFigure('es', 'events', 12345, null)).toBe('12.345');
    expect(formatFigure('en', 'revenue', 1234.5, null)).toBe('1,234.50');
    expect(formatFigure('en', 'revenue', 1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatFigure('es', 'revenue', 1234.5, 'EUR').replace(/\s/g, ' ')).toBe('1234,50 €');
    expect(formatFigure('en', 'revenue', 25, 'usd')).toBe('$25.00');
    // A code Intl refuses falls back to the plain number.
    expect(formatFigure('en', 'revenue', 25, '€€')).toBe('25.00');
  });

  it('compares with the period of the same length just before, as the API does', () => {
    expect(previousRange({ startDay: '2026-11-18', endDay: '2026-11-24' })).toEqual({ startDay: '2026-11-11', endDay: '2026-11-17' });
    expect(previousRange({ startDay: '2026-03-01', endDay: '2026-03-01' })).toEqual({ startDay: '2026-02-28', endDay: '2026-02-28' });
    expect(previousRange({ startDay: '2026-03-01', endDay: '2026-03-31' })).toEqual({ startDay: '2026-01-29', endDay: '2026-02-28' });
  });

  it('names the range of days', () => {
    expect(formatDays('en', { startDay: '2026-11-18', endDay: '2026-11-24' })).toMatch(/Nov 18\s*–\s*24, 2026/);
    expect(formatDays('en', { startDay: '2026-11-24', endDay: '2026-11-24' })).toBe('Nov 24, 2026');
  });
});

describe('home blocks per role', () => {
  const canFor = (role: BuiltInRole) => {
    const subject = subjectFor('u', disallowedFor(ROLE_GRANTS[role]));
    return (expr: Parameters<typeof can>[1]) => can(subject, expr);
  };

  it('shows every block to the roles that read analytics and communication', () => {
    for (const role of ['client', 'admin', 'manager', 'client_pm', 'agency', 'author', 'analyst'] as const) {
      expect(homeBlocks(canFor(role)), role).toEqual({ figures: true, attention: true, journeys: true, audiences: true });
    }
  });

  it('gives a role without them shortcuts to the screens it may open instead', () => {
    const provider = canFor('provider');
    const blocks = homeBlocks(provider);
    expect(blocks).toEqual({ figures: false, attention: false, journeys: false, audiences: false });
    expect(anyBlock(blocks)).toBe(false);
    const paths = shortcuts((_route, key) => provider(key)).map((r) => r.path);
    expect(paths.length).toBeGreaterThan(0);
    // A provider opens the acquisition screens and its own user screens, nothing else.
    expect(paths.every((p) => p.startsWith('/user/') || p.startsWith('/acquisition/'))).toBe(true);
    expect(paths).toContain('/acquisition/activity');
  });

  it('follows an app restriction: without the analytics screens, no key figures', () => {
    const subject = subjectFor('u', disallowedFor(ROLE_GRANTS.client, ['route:/behavior/events', 'route:/behavior/explore']));
    expect(homeBlocks((expr) => can(subject, expr))).toMatchObject({ figures: false, attention: true });
    const owned = subjectFor('u', disallowedFor(['ui:journey.view:owner', 'route:/communication/journeys']));
    expect(homeBlocks((expr) => can(owned, expr))).toEqual({ figures: false, attention: true, journeys: true, audiences: false });
  });
});
