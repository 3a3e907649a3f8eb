/**
 * Audience shares (schemas/audienceShare.ts; what a share is: audienceShare/model.ts). Reading
 * needs `ui:audience.view`; sharing, "sync now" and stopping need one of the share entries' keys,
 * and the API checks the key of the integration's own entry (social, search ads, trade desk).
 *
 * Failures: 10004 for an audience that does not exist (as the audience routes answer), 10 for an
 * integration or share that does not exist (or is another app's), 10001 for an integration that
 * cannot receive audiences or a malformed platform audience id, 30 for an audience already shared
 * through that integration, 409 for "sync now" on a run already going; deleting a share answers
 * the service's connection code (10009, 10024, 10047) when the platform refuses the removal.
 */
import { z } from 'zod';
import { AudienceShare, AudienceShareCreate, AudienceShareDeleteQuery, ShareTarget } from '../schemas/audienceShare.ts';
import { ep, none } from './define.ts';

const SHARE = { or: ['ui:audience.shareSocial', 'ui:audience.shareSearchAds', 'ui:audience.shareTradeDesk'] } as const;
const BASE = '/apps/:appId/audiences/:audienceId/shares';

export const audienceShareEndpoints = {
  audienceShares: ep({ method: 'GET', path: BASE, summary: "An audience's shares to ad platforms, with their state, counts and last failure", auth: 'ui:audience.view', response: { shares: z.array(AudienceShare) } }),
  audienceShareTargets: ep({ method: 'GET', path: '/apps/:appId/audience-share-targets', summary: 'The integrations audiences can be shared through (social, search-ads and trade-desk services), by name; no credentials', auth: SHARE, response: { targets: z.array(ShareTarget) } }),
  createAudienceShare: ep({
    method: 'POST', path: BASE, auth: SHARE, request: AudienceShareCreate, response: { share: AudienceShare },
    summary: "Share an audience through an integration: its members' identifiers, normalised and hashed as the platform asks, are uploaded at once and kept in step after every refresh",
  }),
  syncAudienceShare: ep({ method: 'POST', path: `${BASE}/:shareId/sync`, summary: 'Send the changes of the audience to the platform now (added members uploaded, removed ones taken off)', auth: SHARE, response: { share: AudienceShare } }),
  deleteAudienceShare: ep({
    method: 'DELETE', path: `${BASE}/:shareId`, auth: SHARE, query: AudienceShareDeleteQuery, response: none,
    summary: 'Stop sharing: removes from the platform audience every person this share uploaded, then forgets the share (keepOnPlatform=true: removes nobody)',
  }),
} as const;
