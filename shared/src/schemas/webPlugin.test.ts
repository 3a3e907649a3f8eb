import { describe, expect, it } from 'vitest';
import { pluginAllowsHost } from './webPlugin.ts';

describe('pluginAllowsHost', () => {
  it('matches listed hosts exactly, and *. entries on subdomains only', () => {
    const domains = ['shop.example.com', '*.example.org'];
    expect(pluginAllowsHost(domains, 'shop.example.com')).toBe(true);
    expect(pluginAllowsHost(domains, 'SHOP.example.com.')).toBe(true);
    expect(pluginAllowsHost(domains, 'evil-shop.example.com')).toBe(false);
    expect(pluginAllowsHost(domains, 'www.example.org')).toBe(true);
    expect(pluginAllowsHost(domains, 'a.b.example.org')).toBe(true);
    expect(pluginAllowsHost(domains, 'example.org')).toBe(false);
    expect(pluginAllowsHost(domains, 'badexample.org')).toBe(false);
    expect(pluginAllowsHost([], 'shop.example.com')).toBe(false);
  });
});
