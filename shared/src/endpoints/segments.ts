/**
 * Segments and audiences (/behavior/audiences). Segment conditions live in Yjs documents (open
 * them with POST /docs/token); these endpoints manage the segments, estimate a segment's people
 * and run audiences through their states (SPEC.md section 4: new, in_progress, ready, sync,
 * error, inactive).
 *
 * Permissions (SPEC.md section 3): audience create, delete, view, edit, clone (owner variants on
 * the items a user created), "modify segment" for segment changes and "select non-test audience
 * or segment" for the `selectable` list. Failures: 10001 with `details` (path `nodes.<key>.<field>`,
 * message the rule code) for a segment that does not evaluate (AudienceNotValid), 10 for an
 * audience or segment that does not exist (AudienceNotExist), 30 for a name in use.
 */
import { z } from 'zod';
import {
  AudienceClone, AudienceCreate, AudienceDetail, AudienceListQuery, AudienceSummary, AudienceUpdate, EstimateAnswer, EstimateRequest,
  SegmentCreate, SegmentDetail, SegmentRename, SegmentSummary, SegmentValuesAnswer, SegmentValuesQuery,
} from '../schemas/segments.ts';
import { ep, none } from './define.ts';

const EDIT = { or: ['ui:audience.edit', 'ui:audience.edit:owner'] } as const;
const DELETE = { or: ['ui:audience.delete', 'ui:audience.delete:owner'] } as const;
const CLONE = { or: ['ui:audience.clone', 'ui:audience.clone:owner'] } as const;

export const segmentEndpoints = {
  listSegments: ep({ method: 'GET', path: '/apps/:appId/segments', summary: 'Segments of an app, most recently changed first', auth: 'ui:audience.view', response: { segments: z.array(SegmentSummary) } }),
  getSegment: ep({ method: 'GET', path: '/apps/:appId/segments/:segmentId', summary: 'A segment with its current conditions and what keeps them from evaluating', auth: 'ui:audience.view', response: SegmentDetail }),
  createSegment: ep({ method: 'POST', path: '/apps/:appId/segments', summary: 'Create a segment (its document starts with an empty root group)', auth: { and: ['ui:segment.modify', 'ui:audience.create'] }, request: SegmentCreate, response: { segment: SegmentSummary } }),
  renameSegment: ep({ method: 'PUT', path: '/apps/:appId/segments/:segmentId', summary: 'Rename a segment', auth: { and: ['ui:segment.modify', EDIT] }, request: SegmentRename, response: { segment: SegmentSummary } }),
  cloneSegment: ep({ method: 'POST', path: '/apps/:appId/segments/:segmentId/clone', summary: 'Copy a segment and its current conditions under a new name', auth: { and: ['ui:segment.modify', 'ui:audience.create', CLONE] }, request: SegmentCreate, response: { segment: SegmentSummary } }),
  deleteSegment: ep({ method: 'DELETE', path: '/apps/:appId/segments/:segmentId', summary: 'Delete a segment (audiences made from it keep their last definition)', auth: { and: ['ui:segment.modify', DELETE] }, response: none }),
  estimateSegment: ep({
    method: 'POST', path: '/apps/:appId/segments/estimate', auth: { or: ['ui:audience.view', 'ui:segment.modify'] }, request: EstimateRequest, response: EstimateAnswer,
    summary: 'Count the people a segment selects now, with a sample of up to 20. Stops when the caller goes away or after 8 s (answers 10000).',
  }),
  segmentValues: ep({
    method: 'GET', path: '/apps/:appId/segment-values', auth: { or: ['ui:audience.view', 'ui:segment.modify'] }, query: SegmentValuesQuery, response: SegmentValuesAnswer,
    summary: 'The most frequent values of a condition field in the app (type, id; optional prefix q; limit, default 50), with how many people have each. A field the catalogue does not know, or one without values to list, answers 10001 (details: id, unknown_target or values_not_listed).',
  }),

  listAudiences: ep({ method: 'GET', path: '/apps/:appId/audiences', summary: 'Audiences of an app (query: owner=me|all, selectable=true|false)', auth: 'ui:audience.view', query: AudienceListQuery, response: { audiences: z.array(AudienceSummary) } }),
  getAudience: ep({ method: 'GET', path: '/apps/:appId/audiences/:audienceId', summary: 'An audience with a sample of its members', auth: 'ui:audience.view', response: AudienceDetail }),
  createAudience: ep({
    method: 'POST', path: '/apps/:appId/audiences', auth: 'ui:audience.create', request: AudienceCreate, response: { audience: AudienceSummary },
    summary: 'Create an audience from a segment, from conditions or from audience rules; it is computed at once (ready, or error with the reason) and then refreshed every refreshEveryMinutes',
  }),
  updateAudience: ep({ method: 'PUT', path: '/apps/:appId/audiences/:audienceId', summary: 'Rename, mark as test, change the refresh period, deactivate (active=false) or reactivate (active=true, refreshes it)', auth: EDIT, request: AudienceUpdate, response: { audience: AudienceSummary } }),
  refreshAudience: ep({ method: 'POST', path: '/apps/:appId/audiences/:audienceId/refresh', summary: 'Recount and rematerialise the members now, in one transaction (a failure keeps the previous members and records the error)', auth: EDIT, response: { audience: AudienceSummary } }),
  cloneAudience: ep({ method: 'POST', path: '/apps/:appId/audiences/:audienceId/clone', summary: 'Copy an audience (its definition, or an import\'s members) under a new name', auth: { and: ['ui:audience.create', CLONE] }, request: AudienceClone, response: { audience: AudienceSummary } }),
  deleteAudience: ep({ method: 'DELETE', path: '/apps/:appId/audiences/:audienceId', summary: 'Delete an audience and its members', auth: DELETE, response: none }),
} as const;
