import { describe, expect, it } from 'vitest';
import { LandingBlocks, LandingColour, LandingDomain, LandingSlug, isLandingButtonUrl, isLandingImageUrl, isLandingSlug, landingUrl, newBlock, LANDING_BLOCK_TYPES } from './model.ts';
import { LandingInput } from '../schemas/landings.ts';

const ruleOf = (result: { success: boolean; error?: { issues: readonly object[] } | undefined }) => (result.error?.issues[0] as { params?: { rule?: string } } | undefined)?.params?.rule;

describe('landing slugs, domains and colours', () => {
  it('takes SPEC §5 slug-like text and refuses anything else', () => {
    for (const slug of ['spring-sale', 'Spring_Sale.2026', 'a~b', 'x', 'a'.repeat(100)]) expect(isLandingSlug(slug), slug).toBe(true);
    for (const slug of ['', 'has space', 'a/b', '.', '..', '...', 'ñandú', 'a?b', 'a#b', '%20', 'a'.repeat(101)]) expect(isLandingSlug(slug), slug).toBe(false);
    expect(ruleOf(LandingSlug.safeParse('bad slug'))).toBe('slug');
    expect(LandingSlug.parse('  ok-slug ')).toBe('ok-slug');
  });

  it('takes #RRGGBB colours only', () => {
    for (const colour of ['#000000', '#ffffff', '#4F46E5']) expect(LandingColour.safeParse(colour).success, colour).toBe(true);
    for (const colour of ['#FFF', 'FFFFFF', '#GGGGGG', 'red', '#1234567', 'rgb(0,0,0)', '']) {
      const result = LandingColour.safeParse(colour);
      expect(result.success, colour).toBe(false);
      expect(ruleOf(result), colour).toBe('colour');
    }
  });

  it('takes domain names in lower case and refuses others', () => {
    expect(LandingDomain.parse('Promo.Example.COM')).toBe('promo.example.com');
    for (const domain of ['localhost', 'a.b', 'exa mple.com', 'example.c0m', '-bad.example.com', '127.0.0.1']) expect(ruleOf(LandingDomain.safeParse(domain)), domain).toBe('domain');
  });

  it('shows images from public https addresses only, and sends buttons to http(s) or app links', () => {
    expect(isLandingImageUrl('https://cdn.example.com/a.png')).toBe(true);
    for (const url of ['http://cdn.example.com/a.png', 'https://127.0.0.1/a.png', 'https://localhost/a.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)']) expect(isLandingImageUrl(url), url).toBe(false);
    for (const url of ['https://shop.example.com', 'http://shop.example.com/x', 'shop://sale']) expect(isLandingButtonUrl(url), url).toBe(true);
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'https://10.0.0.1/', 'file:///etc/passwd', 'vbscript:x']) expect(isLandingButtonUrl(url), url).toBe(false);
  });
});

describe('the block model', () => {
  it('makes a valid block of every type once its texts are filled', () => {
    const blocks = LANDING_BLOCK_TYPES.map((type, i) => {
      const block = newBlock(type, `b${i}`);
      if (block.type === 'title' || block.type === 'text') return { ...block, text: 'Hello' };
      if (block.type === 'image') return { ...block, url: 'https://cdn.example.com/a.png' };
      if (block.type === 'buttons') return { ...block, buttons: block.buttons.map((b) => ({ ...b, label: 'Go', url: 'https://a.example.com' })) };
      return block;
    });
    expect(LandingBlocks.safeParse(blocks).success).toBe(true);
  });

  it('refuses two blocks with one id, unknown types, extra fields and too many buttons', () => {
    const title = { type: 'title', id: 'a', text: 'T', size: 'large', align: 'left' };
    expect(ruleOf(LandingBlocks.safeParse([title, { ...title }]))).toBe('block_ids');
    expect(LandingBlocks.safeParse([{ ...title, type: 'video' }]).success).toBe(false);
    expect(LandingBlocks.safeParse([{ ...title, html: '<b>x</b>' }]).success).toBe(false);
    const button = { label: 'Go', url: 'https://a.example.com', background: '#000000', text: '#FFFFFF' };
    expect(LandingBlocks.safeParse([{ type: 'buttons', id: 'b', align: 'left', buttons: [button, button, button, button] }]).success).toBe(false);
  });

  it('reads an empty domain, campaign or link as none', () => {
    const input = LandingInput.parse({ name: 'N', slug: 's', domain: ' ', campaignId: '', linkId: null, colours: { background: '#FFFFFF', text: '#000000', accent: '#111111' }, blocks: [] });
    expect(input).toMatchObject({ domain: null, campaignId: null, linkId: null });
  });

  it('answers the public address on the link host or on the custom domain', () => {
    expect(landingUrl('https://go.example.com/p/', 'spring sale', null)).toBe('https://go.example.com/p/spring%20sale');
    expect(landingUrl('https://go.example.com/p', 'spring', 'promo.example.com')).toBe('https://promo.example.com/spring');
  });
});
