/**
 * The e-mail body as the preview shows it: sanitised with DOMPurify (no scripts, no event handler
 * attributes, no javascript: or other script-carrying URLs, no frames, forms or objects), then
 * rendered in an iframe with `sandbox=""` (no scripts, no same origin, no navigation) as a second wall.
 * The whole document is kept (an e-mail's <head> carries its <style>).
 */
import createDOMPurify, { type WindowLike } from 'dompurify';

const FORBID_TAGS = ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'base', 'meta', 'link'];

/** Sanitises `html` with the DOM of `win` (the browser's window by default; tests pass a jsdom one). */
export function sanitizeEmailHtml(html: string, win: WindowLike = window): string {
  const purify = createDOMPurify(win);
  if (!purify.isSupported) return '';
  return purify.sanitize(html, {
    WHOLE_DOCUMENT: true,
    FORBID_TAGS,
    // Form controls and attributes that submit or navigate on their own are of no use in an e-mail.
    FORBID_ATTR: ['formaction', 'action', 'srcdoc', 'ping'],
    ALLOW_UNKNOWN_PROTOCOLS: false,
  });
}
