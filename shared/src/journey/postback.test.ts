import { describe, expect, it } from 'vitest';
import { POSTBACK_TEMPLATES, fillPostbackTemplate, postbackPlaceholders, postbackTemplateValid, unknownPlaceholders } from './postback.ts';

describe('postbackTemplateValid', () => {
  it('accepts JSON with quoted placeholders of every template', () => {
    const body = JSON.stringify(Object.fromEntries(POSTBACK_TEMPLATES.map((t) => [t, `{{${t}}}`])));
    expect(postbackTemplateValid(body)).toBe(true);
  });

  it('accepts a bare numeric template and plain JSON', () => {
    expect(postbackTemplateValid('{"at": {{unixTime}}}')).toBe(true);
    expect(postbackTemplateValid('[1, "two", {"three": null}]')).toBe(true);
  });

  it('rejects a bare string template, broken JSON and an empty body', () => {
    expect(postbackTemplateValid('{"id": {{customerId}}}')).toBe(false);
    expect(postbackTemplateValid('{"id": "{{customerId}}"')).toBe(false);
    expect(postbackTemplateValid('')).toBe(false);
  });

  it('understands the optional dot part and tests unknown names with a sample valid bare or quoted', () => {
    expect(postbackTemplateValid('{"d": "{{isoDate.day}}", "n": {{tag.points}}, "s": "{{tag-x_y}}"}')).toBe(true);
    expect(postbackPlaceholders('{{a.b}} {{c}} {{bad name}} {{x.y.z}}').map((p) => [p.name, p.part])).toEqual([
      ['a', 'b'],
      ['c', null],
    ]);
  });

  it('lists unknown placeholders and fills values', () => {
    expect(unknownPlaceholders('{{customerId}} {{who}} {{isoDate.x}} {{tag.n}}')).toEqual(['{{who}}', '{{tag.n}}']);
    expect(fillPostbackTemplate('{"id":"{{customerId}}"}', (p) => (p.name === 'customerId' ? 'u1' : ''))).toBe('{"id":"u1"}');
  });
});
