/**
 * In-app rendering decisions without the DOM (pure, tested in model.test.ts): where each type
 * goes, what a button does, which links may be followed, the order messages are shown in, and the
 * style sheet. render.ts applies them to the page.
 *
 * - Types: banner (a bar, top or bottom), strip (a thin bar, top/middle/bottom), startview (full
 *   screen), adball (a floating ball at the left or right edge; a tap opens its card), coupon (a
 *   card with the promo code: a tap copies it and redeems), dynamictab (a tab on the right edge
 *   that opens its card), default (a centred card), blank (the image alone, a centred card).
 * - Position: the message's own when its type has placements, else the web plugin's (bars).
 * - Close button: the plugin's choice for bars, the ball and the tab; cards and full screens always
 *   have one (a visitor must be able to leave them).
 * - Links: http(s) and app schemes only (never javascript:, data:, vbscript:). A button's action:
 *   `tap` closes the message (the click is counted); `deeplink` opens the app link in this page;
 *   `changeUrl` moves this page to the address; `customUrl` opens it in a new tab when its mode is
 *   `browser`, else in this page.
 * - One message at a time (the newest first): the next shows when the previous is closed.
 */
import type { InAppMessage, SdkButton, SdkPluginLook } from '@gd/shared/schemas/sdkMessages';

export type { InAppMessage, SdkPluginLook };

export type Layout =
  | { kind: 'bar'; edge: 'top' | 'middle' | 'bottom'; thin: boolean }
  | { kind: 'card'; full: boolean }
  | { kind: 'ball' | 'tab'; edge: 'left' | 'right' };

export function layoutOf(m: Pick<InAppMessage, 'type' | 'position'>, plugin: Pick<SdkPluginLook, 'position'>): Layout {
  const p = m.position;
  switch (m.type) {
    case 'banner':
      return { kind: 'bar', edge: p === 'top' || p === 'bottom' ? p : plugin.position === 'top' ? 'top' : 'bottom', thin: false };
    case 'strip':
      return { kind: 'bar', edge: p === 'top' || p === 'middle' || p === 'bottom' ? p : plugin.position, thin: true };
    case 'adball':
      return { kind: 'ball', edge: p === 'left' ? 'left' : 'right' };
    case 'dynamictab':
      return { kind: 'tab', edge: p === 'left' ? 'left' : 'right' };
    case 'startview':
      return { kind: 'card', full: true };
    case 'coupon':
    case 'default':
    case 'blank':
      return { kind: 'card', full: false };
    default: {
      const never: never = m.type;
      throw new Error(`unknown in-app type ${String(never)}`);
    }
  }
}

/** Whether the message gets a close button. */
export const hasClose = (layout: Layout, plugin: Pick<SdkPluginLook, 'closeButton'>): boolean => layout.kind === 'card' || plugin.closeButton;

/** The close button's label in the message's language (English unless a translation is here). */
const CLOSE: Record<string, string> = { en: 'Close', es: 'Cerrar' };
export const closeLabel = (language: string): string => CLOSE[language.slice(0, 2).toLowerCase()] ?? 'Close';

/** A link the SDK may follow: http(s), or an app's own scheme (`myapp://…`). */
export function safeUrl(url: string): string | null {
  const u = url.trim();
  // Browsers drop whitespace and control characters inside a scheme (`java\tscript:`).
  // eslint-disable-next-line no-control-regex
  if (!u || /^(javascript|data|vbscript|file|blob):/i.test(u.replace(/[\s\u0000-\u001f]/g, ''))) return null;
  return /^https?:\/\//i.test(u) || /^[a-z][a-z0-9+.-]*:\/\/./i.test(u) ? u : null;
}

export type Go = { to: 'none' } | { to: 'page' | 'tab'; url: string };

/** Where a button (or the message's own target, as a `customUrl` in this page) leads. */
export function goFor(b: Pick<SdkButton, 'action' | 'target_url' | 'open_in'>): Go {
  if (b.action === 'tap') return { to: 'none' };
  const url = safeUrl(b.target_url);
  if (!url) return { to: 'none' };
  return b.action === 'customUrl' && b.open_in === 'browser' ? { to: 'tab', url } : { to: 'page', url };
}

/** The messages to show, in order, without those already shown on this page. */
export const toShow = (messages: readonly InAppMessage[], shown: ReadonlySet<string>): InAppMessage[] =>
  messages.filter((m) => !shown.has(m.messageId));

/** Milliseconds before an automatic close (null: until the visitor closes it). */
export const autoCloseMs = (m: Pick<InAppMessage, 'shown_time'>): number | null => (m.shown_time && m.shown_time > 0 ? m.shown_time * 1000 : null);

/** A colour the style sheet may take (#rgb or #rrggbb), else the default accent. */
export const accentOf = (c: string): string => (/^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(c) ? c : '#228be6');

/** The style sheet of the shadow root (the page's CSS cannot reach inside it). */
export function styleSheet(plugin: Pick<SdkPluginLook, 'accentColor' | 'zIndex'>): string {
  const z = Number.isInteger(plugin.zIndex) ? plugin.zIndex : 2147483000;
  return `:host{all:initial}*{box-sizing:border-box;font:14px/1.4 system-ui,sans-serif;color:#222;margin:0}
.m{position:fixed;z-index:${z};background:#fff;box-shadow:0 4px 24px #0003;display:flex;gap:8px;align-items:center;padding:12px}
.bar{left:0;right:0}.top{top:0}.bottom{bottom:0}.middle{top:50%;transform:translateY(-50%)}.thin{padding:6px 12px}
.card{top:50%;left:50%;transform:translate(-50%,-50%);flex-direction:column;max-width:min(92vw,420px);border-radius:12px;padding:20px}
.full{inset:0;transform:none;max-width:none;border-radius:0;justify-content:center}
.ball{bottom:24px;width:64px;height:64px;border-radius:50%;padding:0;justify-content:center;background:${accentOf(plugin.accentColor)};overflow:hidden}
.tab{top:40%;writing-mode:vertical-rl;background:${accentOf(plugin.accentColor)};color:#fff;border-radius:8px 0 0 8px}
.left{left:16px}.right{right:16px}.tab.right{right:0}.tab.left{left:0;border-radius:0 8px 8px 0}
.ball img{width:100%;height:100%;object-fit:cover}img{max-width:100%;max-height:50vh}
h2{font-weight:700;font-size:16px}p{flex:1}.tab *{color:#fff}
button{cursor:pointer;border:0;border-radius:6px;padding:8px 14px;background:${accentOf(plugin.accentColor)};color:#fff;font-weight:600}
.open{background:none;padding:0;border-radius:inherit;align-self:stretch;flex:1;display:flex;align-items:center;justify-content:center;writing-mode:inherit}
.code:disabled{cursor:default}
.code{font:700 18px monospace;letter-spacing:2px;background:#fff;color:#222;border:2px dashed ${accentOf(plugin.accentColor)}}
.x{position:absolute;top:4px;right:4px;background:none;color:#666;padding:2px 8px;font-size:18px}.bar .x,.ball .x{position:static}`;
}
