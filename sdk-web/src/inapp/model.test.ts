import { describe, expect, it } from 'vitest';
import { autoCloseMs, closeLabel, goFor, hasClose, layoutOf, safeUrl, styleSheet, toShow, type InAppMessage } from './model.ts';

const plugin = { position: 'bottom' as const, accentColor: '#0b7285', zIndex: 99, closeButton: false };

describe('in-app rendering rules', () => {
  it('places each type: bars at their edge (the plugin\'s when unset), cards, the ball and the tab', () => {
    expect(layoutOf({ type: 'banner', position: 'top' }, plugin)).toEqual({ kind: 'bar', edge: 'top', thin: false });
    expect(layoutOf({ type: 'banner', position: null }, plugin)).toEqual({ kind: 'bar', edge: 'bottom', thin: false });
    expect(layoutOf({ type: 'strip', position: 'middle' }, plugin)).toEqual({ kind: 'bar', edge: 'middle', thin: true });
    expect(layoutOf({ type: 'startview', position: null }, plugin)).toEqual({ kind: 'card', full: true });
    for (const type of ['coupon', 'default', 'blank'] as const) expect(layoutOf({ type, position: null }, plugin)).toEqual({ kind: 'card', full: false });
    expect(layoutOf({ type: 'adball', position: 'left' }, plugin)).toEqual({ kind: 'ball', edge: 'left' });
    expect(layoutOf({ type: 'dynamictab', position: null }, plugin)).toEqual({ kind: 'tab', edge: 'right' });
  });

  it('gives cards a close button always, bars only when the plugin says so', () => {
    expect(hasClose({ kind: 'card', full: true }, plugin)).toBe(true);
    expect(hasClose({ kind: 'bar', edge: 'top', thin: false }, plugin)).toBe(false);
    expect(hasClose({ kind: 'bar', edge: 'top', thin: false }, { closeButton: true })).toBe(true);
  });

  it('labels the close button in the message\'s language, English when it has no translation', () => {
    expect(closeLabel('es')).toBe('Cerrar');
    expect(closeLabel('es-MX')).toBe('Cerrar');
    expect(closeLabel('en-GB')).toBe('Close');
    expect(closeLabel('fr')).toBe('Close');
  });

  it('follows only http(s) and app links, in a new tab for customUrl in browser mode', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl(' java\tscript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,x')).toBeNull();
    expect(safeUrl('/relative')).toBeNull();
    expect(safeUrl('myapp://promo/1')).toBe('myapp://promo/1');
    expect(goFor({ action: 'customUrl', target_url: 'https://a.example.com', open_in: 'browser' })).toEqual({ to: 'tab', url: 'https://a.example.com' });
    expect(goFor({ action: 'customUrl', target_url: 'https://a.example.com', open_in: 'app' })).toEqual({ to: 'page', url: 'https://a.example.com' });
    expect(goFor({ action: 'changeUrl', target_url: 'https://a.example.com/b', open_in: 'browser' })).toEqual({ to: 'page', url: 'https://a.example.com/b' });
    expect(goFor({ action: 'deeplink', target_url: 'myapp://x', open_in: 'app' })).toEqual({ to: 'page', url: 'myapp://x' });
    expect(goFor({ action: 'tap', target_url: 'https://a.example.com', open_in: 'browser' })).toEqual({ to: 'none' });
    expect(goFor({ action: 'customUrl', target_url: 'javascript:void 0', open_in: 'browser' })).toEqual({ to: 'none' });
  });

  it('shows each message once per page, closes after shown_time, and styles with a safe accent', () => {
    const m = (id: string) => ({ messageId: id }) as InAppMessage;
    expect(toShow([m('a'), m('b')], new Set(['a'])).map((x) => x.messageId)).toEqual(['b']);
    expect(autoCloseMs({ shown_time: 5 })).toBe(5000);
    expect(autoCloseMs({ shown_time: null })).toBeNull();
    expect(styleSheet(plugin)).toContain('z-index:99');
    expect(styleSheet({ accentColor: 'red;}body{display:none', zIndex: 1 })).not.toContain('display:none');
  });
});
