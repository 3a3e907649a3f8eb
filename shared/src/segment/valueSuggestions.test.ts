/** Which condition fields have stored values to suggest, and where they are (issue 11). */
import { describe, expect, it } from 'vitest';
import { SegmentAttribute } from './model.ts';
import { PURCHASE_EVENT } from './semantics.ts';
import { SUGGESTED_ATTRIBUTES, valuePicker, valueSource } from './valueSuggestions.ts';

describe('value sources', () => {
  it('lists the text and version attributes, not e-mail, dates, booleans or memberships', () => {
    const listed = SegmentAttribute.options.filter((a) => valueSource('attribute', a) !== null);
    expect(listed.sort()).toEqual([...SUGGESTED_ATTRIBUTES].sort());
    expect(valueSource('attribute', 'country')).toEqual({ from: 'person', attribute: 'country' });
    expect(valueSource('attribute', 'email')).toBeNull();
  });

  it('maps devices, tags and event properties', () => {
    expect(valueSource('device_os', 'model')).toEqual({ from: 'device', field: 'model' });
    expect(valueSource('device_os', 'colour')).toBeNull();
    expect(valueSource('user_tag', 'a-tag')).toEqual({ from: 'tag', tagId: 'a-tag' });
    expect(valueSource('user_event_tag', 'signup/plan')).toEqual({ from: 'event_property', event: 'signup', property: 'plan' });
    expect(valueSource('user_event', 'signup/plan')).toEqual({ from: 'event_property', event: 'signup', property: 'plan' });
    expect(valueSource('user_event', 'signup')).toBeNull();
    expect(valueSource('user_product_tag', 'product_id')).toEqual({ from: 'event_property', event: PURCHASE_EVENT, property: 'product_id' });
    for (const kind of ['user_purchase_tag', 'inapp_clicks', 'filter_campaign', 'unsupported'] as const) expect(valueSource(kind, 'revenue')).toBeNull();
  });

  it('picks countries and operating systems with their own pickers', () => {
    expect(valuePicker('attribute', 'country')).toBe('country');
    expect(valuePicker('device_os', 'os')).toBe('os');
    expect(valuePicker('attribute', 'city')).toBe('text');
  });
});
