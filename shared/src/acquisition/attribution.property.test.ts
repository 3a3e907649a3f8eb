/**
 * Attribution rules that hold whatever the clicks (attribution.ts): the credited click is one of
 * the app's counted clicks inside its source's window and the kind's source types; the order the
 * clicks come in does not matter; clicks of another app or flagged as bots change nothing; a
 * winner is never also an assisted click.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, attribute, sourceServes } from './attribution.ts';
import { arbWorld, expectedOf } from './attributionArbitraries.ts';

const APP = 'app-under-test';

describe('attribution properties', () => {
  it('credits only counted clicks of the app inside their window and of a source the kind may use', () => {
    fc.assert(fc.property(arbWorld(APP), (world) => {
      const sources = new Map(world.sources.map((s) => [s.id, s]));
      for (const t of expectedOf(world, APP)) {
        const a = t.attribution;
        expect(a.assisted).not.toContain(a.clickId);
        if (a.clickId === null) {
          expect(a.match).toBe('organic');
          continue;
        }
        const click = world.clicks.find((c) => c.id === a.clickId)!;
        expect(click.bot).toBe(false);
        const source = sources.get(click.sourceId)!;
        expect(click.clickedAt.getTime()).toBeLessThanOrEqual(t.eventTime);
        if (t.kind !== 'reinstall') {
          expect(sourceServes(t.kind, source.type)).toBe(true);
          expect(click.clickedAt.getTime()).toBeGreaterThanOrEqual(t.eventTime - source.lookbackDays * DAY_MS);
        }
      }
    }), { numRuns: 300 });
  });

  it('does not depend on the order of the clicks, nor on bots and other apps\' clicks', () => {
    fc.assert(fc.property(arbWorld(APP), fc.integer(), (world, seed) => {
      const expected = expectedOf(world, APP);
      const shuffled = [...world.clicks].sort((a, b) => ((a.id.charCodeAt(35) * 31 + seed) % 7) - ((b.id.charCodeAt(35) * 31 + seed) % 7));
      const noise = world.clicks.map((c, i) => ({ ...c, id: `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`, appId: i % 2 ? 'another-app' : APP, bot: i % 2 === 0 }));
      expect(expectedOf({ ...world, clicks: [...noise, ...shuffled] }, APP)).toEqual(expected);
    }), { numRuns: 200 });
  });

  it('a referrer click id that is not the app\'s never credits anything', () => {
    fc.assert(fc.property(arbWorld(APP), (world) => {
      const sources = new Map(world.sources.map((s) => [s.id, s]));
      const a = attribute({ appId: APP, kind: 'install', eventTime: new Date(world.devices[0]!.install), device: {}, ip: null, userAgent: null,
        referrerClickId: '99999999-0000-4000-8000-000000000000' }, world.clicks, sources);
      expect(a.match).toBe('organic');
    }), { numRuns: 100 });
  });
});
