/** The web plugin of messages (/communication/messaging/plugin): per-app settings the web SDK follows. */
import { WebPluginSettings, WebPluginSettingsInput } from '../schemas/webPlugin.ts';
import { ep } from './define.ts';

export const webPluginEndpoints = {
  getWebPlugin: ep({ method: 'GET', path: '/apps/:appId/web-plugin', summary: 'The app\'s web plugin settings (defaults until first saved)', auth: 'route:/communication/messaging/plugin', response: { settings: WebPluginSettings } }),
  updateWebPlugin: ep({ method: 'PUT', path: '/apps/:appId/web-plugin', summary: 'Change the web plugin settings (an app setting: ui:app.edit)', auth: { and: ['route:/communication/messaging/plugin', 'ui:app.edit'] }, request: WebPluginSettingsInput, response: { settings: WebPluginSettings } }),
} as const;
