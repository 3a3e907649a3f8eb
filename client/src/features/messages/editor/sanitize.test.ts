import { JSDOM } from 'jsdom';
import type { WindowLike } from 'dompurify';
import { describe, expect, it } from 'vitest';
import { sanitizeEmailHtml } from './sanitize.ts';

const win = new JSDOM('').window as unknown as WindowLike;
const clean = (html: string) => sanitizeEmailHtml(html, win);

describe('sanitizeEmailHtml', () => {
  it('removes scripts, keeping the text around them', () => {
    const out = clean('<p>Hello</p><script>alert(1)</script><p>world</p>');
    expect(out).not.toMatch(/<script/i);
    expect(out).not.toContain('alert(1)');
    expect(out).toContain('<p>Hello</p>');
    expect(out).toContain('<p>world</p>');
  });

  it('removes event handler attributes', () => {
    const out = clean('<img src="https://example.com/a.png" onerror="alert(1)"><div onclick="steal()" onmouseover="x()">Hi</div>');
    expect(out).not.toMatch(/onerror|onclick|onmouseover/i);
    expect(out).toContain('src="https://example.com/a.png"');
    expect(out).toContain('Hi');
  });

  it('removes javascript: links, keeping ordinary ones', () => {
    const out = clean('<a href="javascript:alert(1)">bad</a> <a href=" JaVaScRiPt:alert(2)">worse</a> <a href="https://example.com/x">good</a>');
    expect(out).not.toMatch(/javascript:/i);
    expect(out).toContain('href="https://example.com/x"');
    expect(out).toContain('bad');
  });

  it('keeps the head styles of a whole e-mail document and drops frames and forms', () => {
    const out = clean('<html><head><style>p{color:red}</style></head><body><p>Hi</p><iframe src="https://evil.example"></iframe><form action="https://evil.example"><input></form></body></html>');
    expect(out).toContain('p{color:red}');
    expect(out).not.toMatch(/<iframe|<form/i);
  });
});
