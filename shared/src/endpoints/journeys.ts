/** Journeys (/communication/journeys) and the token that opens a collaborative document. */
import { z } from 'zod';
import { DocTokenRequest } from '../schemas/docs.ts';
import { DocTokenAnswer, JourneyAssign, JourneyCreate, JourneyLaunch, JourneyRename, JourneySummary, JourneyVersionDetail } from '../schemas/journeys.ts';
import { ep, none } from './define.ts';

export const journeyEndpoints = {
  docToken: ep({ method: 'POST', path: '/docs/token', summary: 'A short-lived token to open a collaborative document', auth: 'session', request: DocTokenRequest, response: DocTokenAnswer.shape }),

  listJourneys: ep({ method: 'GET', path: '/apps/:appId/journeys', summary: 'Journeys of an app (query: owner=me|all, scope=current|all)', auth: { or: ['ui:journey.view', 'ui:journey.view:owner'] }, response: { journeys: z.array(JourneySummary) } }),
  createJourney: ep({ method: 'POST', path: '/apps/:appId/journeys', summary: 'Create a journey', auth: 'ui:journey.create', request: JourneyCreate, response: { journey: JourneySummary } }),
  renameJourney: ep({ method: 'PUT', path: '/apps/:appId/journeys/:journeyId', summary: 'Rename a journey', auth: { or: ['ui:journey.edit', 'ui:journey.edit:owner'] }, request: JourneyRename, response: { journey: JourneySummary } }),
  assignJourney: ep({ method: 'PUT', path: '/apps/:appId/journeys/:journeyId/assignee', summary: 'Assign a journey to a user', auth: 'ui:journey.assign', request: JourneyAssign, response: { journey: JourneySummary } }),
  cloneJourney: ep({ method: 'POST', path: '/apps/:appId/journeys/:journeyId/clone', summary: 'Clone a journey into a new draft', auth: { or: ['ui:journey.clone', 'ui:journey.clone:owner'] }, request: JourneyCreate, response: { journey: JourneySummary } }),
  deleteJourney: ep({ method: 'DELETE', path: '/apps/:appId/journeys/:journeyId', summary: 'Delete a journey', auth: { or: ['ui:journey.delete', 'ui:journey.delete:owner'] }, response: none }),
  launchJourney: ep({ method: 'POST', path: '/apps/:appId/journeys/:journeyId/launch', summary: 'Validate the live document and commit it as the next immutable version (only the reviewed journey, when `reviewed` is given)', auth: { or: ['ui:journey.launch', 'ui:journey.launch:owner'] }, request: JourneyLaunch, response: { journey: JourneySummary, version: z.number().int() } }),
  getJourneyVersion: ep({ method: 'GET', path: '/apps/:appId/journeys/:journeyId/versions/:version', summary: 'A launched version of a journey (what the launch review compares against)', auth: { or: ['ui:journey.view', 'ui:journey.view:owner'] }, response: JourneyVersionDetail }),
  stopJourney: ep({ method: 'POST', path: '/apps/:appId/journeys/:journeyId/stop', summary: 'Stop a live journey', auth: { or: ['ui:journey.stop', 'ui:journey.stop:owner'] }, response: { journey: JourneySummary } }),
} as const;
