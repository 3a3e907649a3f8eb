import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeHtml, renderLanding } from './render.ts';
import type { LandingBlock, LandingPage } from './model.ts';

const COLOURS = { background: '#FFFFFF', text: '#111111', accent: '#222222' };
const page = (blocks: LandingBlock[], colours = COLOURS): LandingPage => ({ name: 'Page <name>', colours, blocks });
const CLICK = '3b241101-e2bb-4255-8caf-4136c566a962';
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

describe('rendering a landing', () => {
  it('escapes every text and attribute, and has no script', () => {
    const { html } = renderLanding(page([
      { type: 'title', id: 't', text: '</h1><script>alert(1)</script>', size: 'large', align: 'center' },
      { type: 'text', id: 'x', text: '<img src=x onerror=alert(1)>\n"quoted" & \'single\'', align: 'left' },
      { type: 'image', id: 'i', url: 'https://cdn.example.com/a.png?x="><script>', alt: '" onload="alert(1)', width: 'medium' },
      { type: 'buttons', id: 'b', align: 'center', buttons: [{ label: '<b>Go</b>', url: 'https://a.example.com/?q="x"', background: '#000000', text: '#FFFFFF' }] },
    ]));
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*\sonerror=/i);
    expect(html).not.toMatch(/<img[^>]*\sonload="/i);
    expect(html).toContain('<h1 class="c">&#60;/h1&#62;&#60;script&#62;alert(1)&#60;/script&#62;</h1>');
    expect(html).toContain('<p class="l">&#60;img src=x onerror=alert(1)&#62;<br>&#34;quoted&#34; &#38; &#39;single&#39;</p>');
    expect(html).toContain('alt="&#34; onload=&#34;alert(1)"');
    expect(html).toContain('<figure class="m">');
    expect(html).toContain('>&#60;b&#62;Go&#60;/b&#62;</a>');
    expect(html).toContain('<title>&#60;/h1&#62;&#60;script&#62;alert(1)&#60;/script&#62;</title>');
  });

  it('leaves out images that are not https and buttons that go nowhere safe; colours only as #RRGGBB', () => {
    const { html, css } = renderLanding(page([
      { type: 'image', id: 'i', url: 'http://cdn.example.com/a.png', alt: '', width: 'full' },
      { type: 'buttons', id: 'b', align: 'left', buttons: [
        { label: 'Bad', url: 'javascript:alert(1)', background: '#000000', text: '#FFFFFF' },
        { label: 'Good', url: 'shop://sale', background: 'red;}body{display:none', text: '#FFFFFF' },
      ] },
    ], { background: 'url(https://evil.example.com/x)', text: '#111111', accent: '#222222' }));
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a class="b1-1" href="shop://sale"');
    expect(css).toContain('.b1-1{background:#4F46E5;color:#FFFFFF}');
    expect(css).toContain('background:#FFFFFF;');
    expect(css).not.toContain('evil');
    expect(html).toContain(`<style>${css}</style>`);
  });

  it('carries the click id on to every button, only when it is a UUID', () => {
    const blocks: LandingBlock[] = [{ type: 'buttons', id: 'b', align: 'center', buttons: [
      { label: 'Web', url: 'https://a.example.com/x?y=1#top', background: '#000000', text: '#FFFFFF' },
      { label: 'App', url: 'shop://sale', background: '#000000', text: '#FFFFFF' },
    ] }];
    const { html } = renderLanding(page(blocks), { clickId: CLICK });
    expect(html).toContain(`href="https://a.example.com/x?y=1&#38;gd_click=${CLICK}#top"`);
    expect(html).toContain(`href="shop://sale?gd_click=${CLICK}"`);
    expect(renderLanding(page(blocks), { clickId: '"><script>' }).html).not.toContain('gd_click');
  });

  it('uses the page name as the title when it has no title block; the preview draws buttons without an address', () => {
    expect(renderLanding(page([{ type: 'spacer', id: 's', size: 'large' }])).html).toContain('<title>Page &#60;name&#62;</title><style>');
    const { html } = renderLanding(page([{ type: 'buttons', id: 'b', align: 'center', buttons: [{ label: 'Soon', url: '', background: '#000000', text: '#FFFFFF' }] }]), { preview: true });
    expect(html).toContain('<a class="b0-0">Soon</a>');
  });

  it('escapes any text so that it reads back and opens no element or attribute', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      const escaped = escapeHtml(text);
      expect(escaped).not.toMatch(/[<>"'`]/);
      expect(unescape(escaped)).toBe(text);
      const { html } = renderLanding(page([{ type: 'text', id: 'x', text: `a${text}`, align: 'left' }]));
      expect(html.split('<').length).toBe(renderLanding(page([{ type: 'text', id: 'x', text: `a${'b'.repeat(text.length)}`, align: 'left' }])).html.split('<').length);
    }));
  });
});
