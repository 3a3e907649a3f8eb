/**
 * Provider postbacks and trackers (/acquisition/trackers; a campaign's postback calls). Reads:
 * the screen's route; writes: the apptracker keys. A provider member sees only their provider's.
 */
import { z } from 'zod';
import { ep, none } from './define.ts';
import { AcqPostback, CampaignPostbacksQuery, PostbackTotals, Tracker, TrackerInput, TrackerProvider } from '../schemas/postbacks.ts';

const APPS = '/apps/:appId/acquisition';

export const postbackEndpoints = {
  trackers: ep({
    method: 'GET', path: `${APPS}/trackers`, auth: 'route:/acquisition/trackers', response: { trackers: z.array(Tracker), providers: z.array(TrackerProvider) },
    summary: "The app's in-app event trackers (event → a provider's event postback) with their postbacks by status, and the providers they may post to",
  }),
  createTracker: ep({
    method: 'POST', path: `${APPS}/trackers`, auth: 'ui:apptracker.create', request: TrackerInput, response: { tracker: Tracker },
    summary: 'Create a tracker (a name in use: 30; an unknown provider or campaign: 10; no URL of its own nor of the provider: 10001)',
  }),
  updateTracker: ep({ method: 'PUT', path: `${APPS}/trackers/:trackerId`, auth: 'ui:apptracker.edit', request: TrackerInput, response: { tracker: Tracker }, summary: 'Change a tracker' }),
  deleteTracker: ep({ method: 'DELETE', path: `${APPS}/trackers/:trackerId`, auth: 'ui:apptracker.delete', response: none, summary: 'Delete a tracker (its postbacks already queued are still sent)' }),
  campaignPostbacks: ep({
    method: 'GET', path: `${APPS}/campaigns/:campaignId/postbacks`, auth: 'ui:apptracker.view', query: CampaignPostbacksQuery,
    response: { postbacks: z.array(AcqPostback), totals: PostbackTotals },
    summary: "A campaign's provider postback calls, newest first: time, URL, status, attempts, answer code, error; and the totals by status",
  }),
};
