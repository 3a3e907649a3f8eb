/**
 * A landing page as one static HTML document: no script, every text escaped, colours only as
 * validated `#RRGGBB` values inside one <style> element (classes, never style attributes), images
 * only from https addresses. The API serves it with a Content-Security-Policy naming that style
 * element's hash; the editor shows the same HTML in a sandboxed frame as its live preview.
 */
import { CLICK_ID_PARAM, withQueryParam } from '../acquisition/links.ts';
import { isColour } from '../formats.ts';
import { isLandingButtonUrl, isLandingImageUrl, type LandingBlock, type LandingPage } from './model.ts';

export interface RenderOptions {
  /** The click id the page was reached with (`gd_click`); buttons carry it on. Ignored unless a UUID. */
  clickId?: string | null | undefined;
  /**
   * The editor's live preview: buttons are drawn without an address (nothing to follow inside
   * the editor), also while their address is still being typed.
   */
  preview?: boolean;
}

export interface RenderedLanding {
  html: string;
  /** The text of the page's one <style> element (for the CSP hash). */
  css: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const colour = (value: string, fallback: string) => (isColour(value) ? value.toUpperCase() : fallback);

const SPACER = { small: 16, medium: 32, large: 64 } as const;

/** The page's HTML and its style sheet. */
export function renderLanding(page: LandingPage, options: RenderOptions = {}): RenderedLanding {
  const clickId = options.clickId && UUID.test(options.clickId) ? options.clickId : null;
  const background = colour(page.colours.background, '#FFFFFF');
  const text = colour(page.colours.text, '#1F2937');
  const accent = colour(page.colours.accent, '#4F46E5');
  const rules: string[] = [
    `*{box-sizing:border-box}html,body{margin:0;padding:0}`,
    `body{background:${background};color:${text};font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;-webkit-font-smoothing:antialiased}`,
    `main{max-width:680px;margin:0 auto;padding:40px 20px 56px}`,
    `h1,h2{color:${accent};margin:0 0 16px;line-height:1.2;overflow-wrap:anywhere}h1{font-size:34px}h2{font-size:24px}`,
    `p{margin:0 0 16px;font-size:17px;overflow-wrap:anywhere}`,
    `.l{text-align:left}.c{text-align:center}`,
    `figure{margin:0 0 20px}figure img{display:block;width:100%;height:auto;border-radius:8px}figure.m img{max-width:60%;margin:0 auto}`,
    `.btns{display:flex;flex-wrap:wrap;gap:12px;margin:0 0 20px}.btns.c{justify-content:center}`,
    `.btns a{display:inline-block;padding:12px 24px;border-radius:8px;font-weight:600;font-size:16px;text-decoration:none;max-width:100%;overflow-wrap:anywhere}`,
    `.sp-small{height:${SPACER.small}px}.sp-medium{height:${SPACER.medium}px}.sp-large{height:${SPACER.large}px}`,
  ];
  const body: string[] = [];
  page.blocks.forEach((block, index) => {
    const html = renderBlock(block, index, clickId, options.preview === true, rules);
    if (html) body.push(html);
  });
  const css = rules.join('');
  const title = page.blocks.find((b): b is Extract<LandingBlock, { type: 'title' }> => b.type === 'title')?.text ?? page.name;
  const html = '<!doctype html><html><head><meta charset="utf-8">'
    + '<meta name="viewport" content="width=device-width,initial-scale=1">'
    + `<title>${escapeHtml(title)}</title><style>${css}</style></head>`
    + `<body><main>${body.join('')}</main></body></html>`;
  return { html, css };
}

function renderBlock(block: LandingBlock, index: number, clickId: string | null, preview: boolean, rules: string[]): string {
  switch (block.type) {
    case 'title': {
      const tag = block.size === 'large' ? 'h1' : 'h2';
      return `<${tag} class="${align(block.align)}">${escapeHtml(block.text)}</${tag}>`;
    }
    case 'text':
      return block.text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean)
        .map((p) => `<p class="${align(block.align)}">${p.split('\n').map(escapeHtml).join('<br>')}</p>`).join('');
    case 'image':
      if (!isLandingImageUrl(block.url)) return '';
      return `<figure class="${block.width === 'medium' ? 'm' : 'f'}"><img src="${escapeHtml(block.url)}" alt="${escapeHtml(block.alt)}" loading="lazy" referrerpolicy="no-referrer"></figure>`;
    case 'buttons': {
      const links = block.buttons.map((button, at) => {
        const name = `b${index}-${at}`;
        if (preview) {
          rules.push(`.${name}{background:${colour(button.background, '#4F46E5')};color:${colour(button.text, '#FFFFFF')}}`);
          return `<a class="${name}">${escapeHtml(button.label || ' ')}</a>`;
        }
        if (!isLandingButtonUrl(button.url)) return '';
        rules.push(`.${name}{background:${colour(button.background, '#4F46E5')};color:${colour(button.text, '#FFFFFF')}}`);
        const href = clickId ? withQueryParam(button.url, CLICK_ID_PARAM, clickId) : button.url;
        return `<a class="${name}" href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(button.label)}</a>`;
      }).join('');
      return links ? `<div class="btns ${align(block.align)}">${links}</div>` : '';
    }
    case 'spacer':
      return `<div class="sp-${block.size in SPACER ? block.size : 'medium'}" aria-hidden="true"></div>`;
    default: {
      const unknown: never = block;
      throw new Error(`unknown block ${JSON.stringify(unknown)}`);
    }
  }
}

const align = (value: 'left' | 'center') => (value === 'left' ? 'l' : 'c');
