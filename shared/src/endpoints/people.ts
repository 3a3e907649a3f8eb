/** People endpoints (/behavior/people): search, profile and timeline of one user of an app. */
import { z } from 'zod';
import { ep } from './define.ts';
import { PeopleSearchQuery, PersonDetail, PersonSummary, PersonTimelineAnswer, PersonTimelineQuery } from '../schemas/people.ts';

const auth = 'route:/behavior/people' as const;

export const peopleEndpoints = {
  searchPeople: ep({
    method: 'GET', path: '/apps/:appId/people',
    summary: 'Find people by customer id, e-mail or device id (exact matches first, then prefixes); the people seen last when q is empty',
    auth, query: PeopleSearchQuery, response: { people: z.array(PersonSummary) },
  }),
  getPerson: ep({
    method: 'GET', path: '/apps/:appId/people/:personId',
    summary: 'A person: profile fields, tags, devices, messages received and counts (a merged id answers the person it merged into)',
    auth, response: PersonDetail,
  }),
  personTimeline: ep({
    method: 'GET', path: '/apps/:appId/people/:personId/events',
    summary: "A person's events, newest first, 50 per page (keyset cursor), optionally of one event name",
    auth, query: PersonTimelineQuery, response: PersonTimelineAnswer,
  }),
} as const;
