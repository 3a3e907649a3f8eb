import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@gd/shared/errors';
import type { TFunction } from '../../i18n/keys.ts';
import { ApiError } from '../../api/errors.ts';
import { addBlock, blockHasError, landingFailure, landingInput, landingValues, moveBlock, slugFromName, validateLanding } from './landingForm.ts';

const t: TFunction = (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key);
let next = 0;
const ids = () => `id${next++}`;
const STARTER = { title: 'Headline', text: 'Why', button: 'Get it' };

describe('the landing editor', () => {
  it('starts a new landing from a title, a text and a button in the person\'s words', () => {
    const values = landingValues(undefined, STARTER, ids);
    expect(values.blocks.map((b) => b.type)).toEqual(['title', 'text', 'buttons']);
    expect(values.blocks[0]).toMatchObject({ text: 'Headline' });
    expect(values.blocks[2]).toMatchObject({ buttons: [{ label: 'Get it', url: '', background: '#4F46E5', text: '#FFFFFF' }] });
  });

  it('sends an empty domain as none and a trimmed slug', () => {
    const values = { ...landingValues(undefined, STARTER, ids), name: 'Spring', slug: ' spring ', domain: '  ' };
    expect(landingInput(values)).toMatchObject({ name: 'Spring', slug: 'spring', domain: null, campaignId: null, linkId: null });
  });

  it('says which rule a slug, colour, domain or button address breaks, on its path', () => {
    const values = landingValues(undefined, STARTER, ids);
    values.name = 'Spring';
    values.slug = 'no spaces please';
    values.domain = 'not a domain';
    values.colours.accent = '#12345';
    const buttons = values.blocks[2]!;
    if (buttons.type === 'buttons') buttons.buttons[0]!.url = 'javascript:alert(1)';
    const errors = validateLanding(values, t);
    expect(errors).toEqual({
      slug: 'landings.issues.slug',
      domain: 'landings.issues.domain',
      'colours.accent': 'landings.issues.colour',
      'blocks.2.buttons.0.url': 'landings.issues.button_url',
    });
    expect(blockHasError(errors, 2)).toBe(true);
    expect(blockHasError(errors, 0)).toBe(false);
    values.slug = 'spring';
    values.domain = 'promo.example.com';
    values.colours.accent = '#123456';
    if (buttons.type === 'buttons') buttons.buttons[0]!.url = 'https://shop.example.com';
    expect(validateLanding(values, t)).toEqual({});
  });

  it("shows the API's refusals on their fields", () => {
    const taken = new ApiError(ErrorCode.NAME_DUPLICATED, 'That address is already in use', [{ path: 'slug', message: 'slug_taken' }]);
    expect(landingFailure(taken, t)).toEqual({ fieldErrors: { slug: 'landings.issues.slug_taken' }, formError: null });
    const domain = new ApiError(ErrorCode.NAME_DUPLICATED, 'That domain is used by another account', [{ path: 'domain', message: 'domain_taken' }]);
    expect(landingFailure(domain, t).fieldErrors).toEqual({ domain: 'landings.issues.domain_taken' });
    const empty = new ApiError(ErrorCode.MANDATORY, 'blocks: ...', [{ path: 'blocks', message: 'empty' }]);
    expect(landingFailure(empty, t).fieldErrors).toEqual({ blocks: 'landings.issues.empty' });
  });

  it('adds, moves and names blocks', () => {
    const values = landingValues(undefined, STARTER, ids);
    const added = addBlock(values.blocks, 'spacer', values.colours, 'sp');
    expect(added.map((b) => b.type)).toEqual(['title', 'text', 'buttons', 'spacer']);
    expect(moveBlock(added, 3, -1).map((b) => b.type)).toEqual(['title', 'text', 'spacer', 'buttons']);
    expect(moveBlock(added, 0, -1)).toEqual(added);
    expect(moveBlock(added, 3, 1)).toEqual(added);
    expect(slugFromName('¡Rebajas de Primavera! 2026')).toBe('rebajas-de-primavera-2026');
  });
});
