/**
 * Landings (schemas/landings.ts): an app's landing pages, their publication and their visits per
 * day. The page itself (`GET /p/:slug` on the link host, `GET /:slug` on a custom domain) is not
 * under /api and not in this table (api-server/src/features/landings/host.ts).
 *
 * Permissions: read with the screen's route key (/manage/landings); every change (create, edit,
 * publish, unpublish, delete) with `api:landings.edit` as well.
 *
 * Failures: 10001 with details for bad input (slug, domain, colours, blocks; publishing with no
 * block); 10 for an id of nothing, of another app or of another account (landing, campaign,
 * link); 30 for a slug taken on the same domain (`slug`) or a domain of another account (`domain`).
 */
import { z } from 'zod';
import { Landing, LandingInput, LandingSummary, LandingsQuery, LandingVisitDay, LandingVisitsQuery } from '../schemas/landings.ts';
import { ep, none } from './define.ts';

const LANDINGS = '/apps/:appId/landings';
const READ = 'route:/manage/landings';
const EDIT = { and: [READ, 'api:landings.edit'] } as const;

export const landingEndpoints = {
  landings: ep({
    method: 'GET', path: LANDINGS, auth: READ, query: LandingsQuery, response: { landings: z.array(LandingSummary), hostBase: z.string() },
    summary: "The app's landing pages (optionally one campaign's) with their visits, and the link host's address of landings (/p)",
  }),
  landing: ep({ method: 'GET', path: `${LANDINGS}/:landingId`, auth: READ, response: { landing: Landing }, summary: 'One landing page with its blocks and colours' }),
  createLanding: ep({ method: 'POST', path: LANDINGS, auth: EDIT, request: LandingInput, response: { landing: Landing }, summary: 'Create a landing page (a draft)' }),
  updateLanding: ep({
    method: 'PUT', path: `${LANDINGS}/:landingId`, auth: EDIT, request: LandingInput, response: { landing: Landing },
    summary: 'Change a landing page: name, slug, domain, campaign, link, colours and blocks (a published page changes at once)',
  }),
  publishLanding: ep({
    method: 'POST', path: `${LANDINGS}/:landingId/publish`, auth: EDIT, response: { landing: Landing },
    summary: 'Publish a landing page at its address (it needs at least one block)',
  }),
  unpublishLanding: ep({
    method: 'POST', path: `${LANDINGS}/:landingId/unpublish`, auth: EDIT, response: { landing: Landing },
    summary: 'Take a landing page down: its address answers 404 and links using it fall back to their own web addresses',
  }),
  deleteLanding: ep({
    method: 'DELETE', path: `${LANDINGS}/:landingId`, auth: EDIT, response: none,
    summary: 'Delete a landing page and its visits; links using it fall back to their own web addresses',
  }),
  landingVisits: ep({
    method: 'GET', path: `${LANDINGS}/:landingId/visits`, auth: READ, query: LandingVisitsQuery, response: { days: z.array(LandingVisitDay) },
    summary: "A landing page's visits per UTC day over the last `days` days (default 30), every day listed",
  }),
};
