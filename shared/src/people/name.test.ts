import { describe, expect, it } from 'vitest';
import { NAME_ATTRIBUTE_KEYS, personName } from './name.ts';

describe("a person's name", () => {
  it('reads a name from the usual profile attributes', () => {
    expect(personName({ name: ' María  José Pérez ' })).toBe('María José Pérez');
    expect(personName({ fullName: 'Li Wei', first_name: 'X' })).toBe('Li Wei');
    expect(personName({ first_name: 'Ana' })).toBe('Ana');
    expect(personName({ givenName: 'Ana', surname: 'Ruiz' })).toBe('Ana Ruiz');
    expect(personName({ name: 42, last_name: 'Ruiz' })).toBe('Ruiz');
    expect(personName({ plan: 'gold' })).toBeNull();
    expect(personName(undefined)).toBeNull();
  });

  it('needs no attribute beyond NAME_ATTRIBUTE_KEYS (what the API selects)', () => {
    const attributes = { plan: 'gold', given_name: 'Ana', family_name: 'López', nickname: 'Anita', display_name: ' ', age: 31 };
    const selected = Object.fromEntries(Object.entries(attributes).filter(([key]) => NAME_ATTRIBUTE_KEYS.includes(key)));
    expect(selected).not.toHaveProperty('plan');
    expect(personName(selected)).toBe(personName(attributes));
    expect(personName(selected)).toBe('Ana López');
  });
});
