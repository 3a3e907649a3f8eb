/**
 * The web plugin's settings (/communication/messaging/plugin): the web SDK shows the app's in-app
 * messages on the listed domains (a page on another domain shows none), at the default placement,
 * in the accent colour, above the page's own layers. Domains follow SPEC §5's domain format (a
 * leading `*.` allows every subdomain); the colour is `#RRGGBB`.
 */
import { z } from 'zod';
import { isColour, isDomainName } from '../formats.ts';

export const MAX_PLUGIN_DOMAINS = 20;

const Domain = z.string().trim().toLowerCase().max(253)
  .refine((d) => isDomainName(d.startsWith('*.') ? d.slice(2) : d), { message: 'Enter a domain such as shop.example.com or *.example.com' });

export const WebPluginPosition = z.enum(['top', 'middle', 'bottom']);
export type WebPluginPosition = z.infer<typeof WebPluginPosition>;

export const WebPluginSettingsInput = z.object({
  enabled: z.boolean(),
  domains: z.array(Domain).max(MAX_PLUGIN_DOMAINS).refine((d) => new Set(d).size === d.length, { message: 'A domain is listed twice' }),
  position: WebPluginPosition,
  accentColor: z.string().refine(isColour, { message: 'Enter a colour as #RRGGBB' }),
  zIndex: z.number().int().min(1).max(2_147_483_647),
  closeButton: z.boolean(),
}).refine((s) => !s.enabled || s.domains.length > 0, { message: 'List at least one domain to turn the plugin on', path: ['domains'] });
export type WebPluginSettingsInput = z.infer<typeof WebPluginSettingsInput>;

export const WebPluginSettings = z.object({
  enabled: z.boolean(),
  domains: z.array(z.string()),
  position: WebPluginPosition,
  accentColor: z.string(),
  zIndex: z.number().int(),
  closeButton: z.boolean(),
  /** Null until first saved (the defaults). */
  updatedAt: z.string().nullable(),
  updatedByName: z.string().nullable(),
});
export type WebPluginSettings = z.infer<typeof WebPluginSettings>;

export const DEFAULT_WEB_PLUGIN: WebPluginSettings = {
  enabled: false, domains: [], position: 'bottom', accentColor: '#228be6', zIndex: 2_147_483_000, closeButton: true, updatedAt: null, updatedByName: null,
};

/** Whether a page's host is one of the plugin's domains (`*.example.com` covers its subdomains, not example.com). */
export function pluginAllowsHost(domains: readonly string[], host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return domains.some((d) => (d.startsWith('*.') ? h.endsWith(d.slice(1)) && h.length > d.length - 1 : h === d));
}
