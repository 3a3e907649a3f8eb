/**
 * SKAdNetwork endpoints (/acquisition/skadnetwork). The postback receiver is public (Apple's
 * devices call it, no session, no CSRF): `POST /api/skan/v4/postback`, also served at the address
 * Apple's developer copies use, `POST /.well-known/skadnetwork/report-attribution` (features/skan).
 */
import { z } from 'zod';
import { SkanConversionSchema, SkanPostbackBody } from '../acquisition/skan.ts';
import {
  SkanCampaignFiguresSchema, SkanFiguresQuery, SkanPostbackQuery, SkanPostbackRow, SkanReceipt, SkanSettings, SkanSettingsInput,
} from '../schemas/skan.ts';
import { ep } from './define.ts';

export const skanEndpoints = {
  skanPostback: ep({
    method: 'POST', path: '/skan/v4/postback', auth: 'public', request: SkanPostbackBody, response: SkanReceipt,
    summary: 'Receive an SKAdNetwork install-validation postback (2.2, 3.0, 4.x): its signature checked against Apple\'s key, stored once per ' +
      'transaction-id and window for the app with that App Store id; rejected ones are kept but never counted',
  }),
  skanSettings: ep({
    method: 'GET', path: '/apps/:appId/skan/settings', auth: 'route:/acquisition/skadnetwork', response: { settings: SkanSettings },
    summary: 'The app\'s SKAdNetwork settings: App Store id, source identifiers mapped to campaigns, the conversion-value schema and the postback addresses',
  }),
  updateSkanSettings: ep({
    method: 'PUT', path: '/apps/:appId/skan/settings', auth: 'ui:apptracker.edit', request: SkanSettingsInput, response: { settings: SkanSettings },
    summary: 'Set the App Store id (30 when another app has it) and the mappings of ad networks\' source identifiers to the app\'s campaigns (10 for an unknown campaign)',
  }),
  updateSkanSchema: ep({
    method: 'PUT', path: '/apps/:appId/skan/schema', auth: 'ui:apptracker.edit', request: SkanConversionSchema, response: { settings: SkanSettings },
    summary: 'Set the conversion-value schema: fine values 0..63 and coarse values (low, medium, high) of each window mapped to events and revenue ranges',
  }),
  skanPostbacks: ep({
    method: 'GET', path: '/apps/:appId/skan/postbacks', auth: 'route:/acquisition/skadnetwork', query: SkanPostbackQuery,
    response: { postbacks: z.array(SkanPostbackRow), total: z.number().int() },
    summary: 'Postbacks received in the range (startDay, endDay in the app\'s time zone), newest first, 100 a page from offset; filters window, fidelity, verified',
  }),
  skanFigures: ep({
    method: 'GET', path: '/apps/:appId/skan/figures', auth: 'route:/acquisition/skadnetwork', query: SkanFiguresQuery,
    response: { campaigns: z.array(SkanCampaignFiguresSchema), currency: z.string(), rejected: z.number().int() },
    summary: 'Verified winning postbacks of the range decoded with the schema, per campaign and window: installs, conversions by event, revenue range',
  }),
};
