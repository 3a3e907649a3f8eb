/**
 * Shows in-app messages in the page (model.ts decides; this applies it). Everything lives in an
 * open shadow root on one host element, so the customer's CSS neither breaks nor sees it, and the
 * message's texts are set as text (never parsed as HTML). Reports impression (shown), click (a
 * button, the image or body with a link, the coupon's code) and dismissed_click (the close button)
 * through the tracker's interaction queue.
 */
import { autoCloseMs, closeLabel, goFor, hasClose, layoutOf, safeUrl, styleSheet, toShow, type InAppMessage, type Layout, type SdkPluginLook } from './model.ts';

export interface InAppHost {
  interaction(kind: 'impression' | 'click' | 'dismissed_click', m: InAppMessage): void;
  /** Redeems the coupon; answers whether the API said OK. */
  redeem(m: InAppMessage): Promise<boolean>;
  /** Before leaving the page: what is queued goes now. */
  leaving(): void;
}

export interface Renderer {
  show(messages: readonly InAppMessage[], plugin: SdkPluginLook): void;
  /** Removes what is shown (its host element too) and what waits. */
  clear(): void;
}

export function createRenderer(doc: Document, host: InAppHost): Renderer {
  let root: ShadowRoot | null = null;
  let style: HTMLStyleElement | null = null;
  let waiting: InAppMessage[] = [];
  let current: { el: HTMLElement; timer: ReturnType<typeof setTimeout> | undefined } | null = null;
  const shown = new Set<string>();
  let headings = 0;
  let look: SdkPluginLook;

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls = '', text = ''): HTMLElementTagNameMap[K] => {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  };

  function rootOf(): ShadowRoot {
    if (!root) {
      const h = el('div');
      h.id = 'growthdeck-in-app';
      doc.body.appendChild(h);
      root = h.attachShadow({ mode: 'open' });
      style = el('style');
      root.appendChild(style);
    }
    if (style) style.textContent = styleSheet(look);
    return root;
  }

  function close() {
    if (!current) return;
    clearTimeout(current.timer);
    current.el.remove();
    current = null;
    next();
  }

  function follow(url: string, tab: boolean) {
    if (tab) {
      window.open(url, '_blank', 'noopener');
    } else {
      host.leaving();
      window.location.assign(url);
    }
  }

  function image(m: InAppMessage, box: HTMLElement) {
    const src = safeUrl(m.image_url);
    if (!src) return;
    const img = el('img');
    img.src = src;
    img.alt = m.title;
    img.referrerPolicy = 'no-referrer';
    box.appendChild(img);
  }

  function build(m: InAppMessage, layout: Layout): HTMLElement {
    const box = el('div', `m ${layout.kind} ${'edge' in layout ? layout.edge : ''} ${layout.kind === 'bar' && layout.thin ? 'thin' : ''} ${layout.kind === 'card' && layout.full ? 'full' : ''}`);
    box.setAttribute('role', layout.kind === 'card' ? 'dialog' : 'status');
    box.dataset.type = m.type;
    box.dataset.message = m.messageId;
    if (layout.kind === 'ball' || layout.kind === 'tab') {
      // The ball and the tab are buttons that open their card.
      const open = el('button', 'open');
      if (layout.kind === 'ball' && safeUrl(m.image_url)) image(m, open);
      else open.appendChild(el('span', '', layout.kind === 'ball' ? m.title.slice(0, 2) : m.title));
      if (m.title) open.setAttribute('aria-label', m.title);
      open.onclick = () => {
        const card = build(m, { kind: 'card', full: false });
        box.replaceWith(card);
        if (current) current.el = card;
        card.querySelector('button')?.focus();
      };
      box.appendChild(open);
    } else {
      image(m, box);
      const link = safeUrl(m.target_url);
      if (link) {
        // The image (and a blank message's whole card) leads to the message's own target.
        box.style.cursor = 'pointer';
        box.onclick = (e) => {
          if ((e.target as HTMLElement).closest('button')) return;
          host.interaction('click', m);
          follow(link, false);
        };
      }
      if (m.type !== 'blank' && m.title) {
        const heading = el('h2', '', m.title);
        heading.id = `gd-title-${++headings}`;
        box.appendChild(heading);
        if (layout.kind === 'card') box.setAttribute('aria-labelledby', heading.id);
      } else if (layout.kind === 'card' && m.title) {
        box.setAttribute('aria-label', m.title);
      }
      if (m.type !== 'blank' && m.message) box.appendChild(el('p', '', m.message));
      if (m.type === 'coupon' && m.promo_code) {
        // One tap redeems: the button waits for the API's answer, shows ✓ on OK, and may be
        // tapped again after a failure (the retry keeps the redemption's client id, index.ts).
        const code = el('button', 'code', m.promo_code);
        let clicked = false;
        code.onclick = () => {
          if (code.disabled) return;
          code.disabled = true;
          void navigator.clipboard?.writeText(m.promo_code).catch(() => undefined);
          if (!clicked) host.interaction('click', m);
          clicked = true;
          void host.redeem(m).catch(() => false).then((ok) => {
            if (ok) code.textContent = `${m.promo_code} ✓`;
            else code.disabled = false;
          });
        };
        box.appendChild(code);
      }
      for (const b of m.buttons) {
        const button = el('button', '', b.text);
        button.onclick = () => {
          host.interaction('click', m);
          const go = goFor(b);
          close();
          if (go.to !== 'none') follow(go.url, go.to === 'tab');
        };
        box.appendChild(button);
      }
    }
    if (hasClose(layout, look)) {
      const x = el('button', 'x', '×');
      x.setAttribute('aria-label', closeLabel(m.language));
      x.onclick = (e) => {
        e.stopPropagation();
        host.interaction('dismissed_click', m);
        close();
      };
      box.appendChild(x);
    }
    return box;
  }

  function next() {
    const m = waiting.shift();
    if (!m) return;
    const box = build(m, layoutOf(m, look));
    rootOf().appendChild(box);
    shown.add(m.messageId);
    const ms = autoCloseMs(m);
    current = { el: box, timer: ms === null ? undefined : setTimeout(close, ms) };
    host.interaction('impression', m);
  }

  return {
    show(messages, plugin) {
      look = plugin;
      const queued = new Set(waiting.map((m) => m.messageId));
      waiting.push(...toShow(messages, shown).filter((m) => !queued.has(m.messageId)));
      if (!current) next();
    },
    clear() {
      waiting = [];
      if (current) clearTimeout(current.timer);
      current = null;
      root?.host.remove();
      root = style = null;
    },
  };
}
