/** Postback URL templates (macros.ts): every SPEC §3 macro filled, values URL encoded, unknown names empty. */
import { describe, expect, it } from 'vitest';
import { POSTBACK_MACROS } from './model.ts';
import { fillPostbackUrl, isPostbackMacro, templateMacros, unknownMacros } from './macros.ts';

describe('fillPostbackUrl', () => {
  it('fills every SPEC §3 macro with its own value', () => {
    const template = `https://pb.example.com/p?${POSTBACK_MACROS.map((m) => `${m}={${m}}`).join('&')}`;
    const values = Object.fromEntries(POSTBACK_MACROS.map((m, i) => [m, `v${i}`]));
    const url = new URL(fillPostbackUrl(template, values));
    expect(POSTBACK_MACROS).toHaveLength(44);
    for (const [i, m] of POSTBACK_MACROS.entries()) expect(url.searchParams.get(m)).toBe(`v${i}`);
  });

  it('URL-encodes values, writes numbers plainly and leaves unset, unknown and non-finite values empty', () => {
    expect(fillPostbackUrl('https://x.example/{dp}?a={amount}&o={order_id}&c={click_id}&u={user_id}&z={nope}&n={unix_time}', {
      dp: 'myapp://promo?x=1&y=2', amount: 12.5, order_id: null, click_id: undefined, user_id: 'a b/ç', unix_time: Number.NaN,
    })).toBe('https://x.example/myapp%3A%2F%2Fpromo%3Fx%3D1%26y%3D2?a=12.5&o=&c=&u=a%20b%2F%C3%A7&z=&n=');
  });

  it('keeps text that is no placeholder as written', () => {
    expect(fillPostbackUrl('https://x.example/p?j={"a":1}&e={}&d={1x}&s={ip', { ip: '1.2.3.4' })).toBe('https://x.example/p?j={"a":1}&e={}&d={1x}&s={ip');
    expect(fillPostbackUrl('https://x.example/{{ip}}', { ip: '1.2.3.4' })).toBe('https://x.example/{1.2.3.4}');
  });

  it('names the macros a template uses, and those that are no macro', () => {
    expect(templateMacros('https://x.example/?a={click_id}&b={amount}&c={click_id}&d={foo}')).toEqual(['click_id', 'amount', 'foo']);
    expect(unknownMacros('https://x.example/?a={click_id}&d={foo}&e={eat_sub25}&f={eat_sub26}')).toEqual(['foo', 'eat_sub26']);
    expect(isPostbackMacro('eat_sub1')).toBe(true);
    expect(isPostbackMacro('eat_sub0')).toBe(false);
  });
});
