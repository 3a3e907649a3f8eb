import { describe, expect, it } from 'vitest';
import type { TFunction } from '../../i18n/keys.ts';
import { effectText, endReasonText, reasonText } from './traceText.ts';

/** Keys and variables as text: what is asked of the catalogue. */
const t = ((key: string, vars?: Record<string, string | number>) => (vars ? `${key}(${Object.entries(vars).map(([k, v]) => `${k}=${v}`).join(',')})` : key)) as TFunction;

describe('trace texts', () => {
  it('names what decided a path', () => {
    expect(reasonText(t, 'event', 'purchase')).toBe('journeyRun.trace.reason.event(detail=purchase)');
    expect(reasonText(t, 'event', null)).toBe('journeyRun.trace.reason.eventAny');
    expect(reasonText(t, 'interaction', 'click')).toBe('journeyRun.trace.reason.interaction(detail=journeyEditor.interaction.click)');
    expect(reasonText(t, 'exit_event', 'unsubscribe')).toBe('journeyRun.trace.reason.exit_event(detail=unsubscribe)');
    expect(reasonText(t, 'wait_elapsed')).toBe('journeyRun.trace.reason.wait_elapsed');
  });

  it('shows a reason this version does not know as it is', () => {
    expect(reasonText(t, 'brand_new_reason', 'x')).toBe('brand_new_reason');
    expect(endReasonText(t, 'brand_new')).toBe('brand_new');
    expect(endReasonText(t, null)).toBeNull();
    expect(endReasonText(t, 'exit_segment')).toBe('journeyRun.trace.endReason.exit_segment');
  });

  it('says what the step did, and how it went', () => {
    expect(effectText(t, null)).toBeNull();
    expect(effectText(t, { kind: 'send', status: 'queued', reason: null })).toEqual({ text: 'journeyRun.trace.effect.queued', tone: 'ok' });
    expect(effectText(t, { kind: 'send', status: 'skipped', reason: 'no_address' })).toEqual({
      text: 'journeyRun.trace.effect.skipped(reason=journeyRun.trace.skip.no_address)',
      tone: 'warn',
    });
    expect(effectText(t, { kind: 'send', status: 'skipped', reason: 'odd' })?.text).toBe('journeyRun.trace.effect.skipped(reason=odd)');
    expect(effectText(t, { kind: 'postback', status: 'failed', reason: 'http_503' })).toEqual({ text: 'journeyRun.trace.effect.postbackFailed(reason=http_503)', tone: 'warn' });
    expect(effectText(t, { kind: 'tag', status: 'applied', reason: null })?.tone).toBe('ok');
    expect(effectText(t, { kind: 'tag', status: 'weird', reason: null })).toEqual({ text: 'journeyRun.trace.effect.other(status=weird)', tone: 'neutral' });
  });
});
