/**
 * The journey engine's reads (issue 14): step counts the canvas polls, a person's journeys for the
 * profile, and a search for a person inside one journey. Schemas in schemas/journeyRun.ts. The
 * journey reads need the journey's visibility (as the journey itself: view, or view:owner on
 * journeys the user created); a person's journeys need the people screen's route key.
 */
import { JourneyPersonSearchAnswer, JourneyPersonSearchQuery, JourneyStepCountsAnswer, JourneyStepCountsQuery, PersonJourneysAnswer } from '../schemas/journeyRun.ts';
import { ep } from './define.ts';

const VIEW = { or: ['ui:journey.view', 'ui:journey.view:owner'] } as const;

export const journeyRunEndpoints = {
  journeyStepCounts: ep({
    method: 'GET', path: '/apps/:appId/journeys/:journeyId/step-counts',
    summary: 'Per step of a launched version (query: version; default the live or last launched one): users there now, users ever there, conversions credited, and totals',
    auth: VIEW, query: JourneyStepCountsQuery, response: JourneyStepCountsAnswer,
  }),
  journeyPersonSearch: ep({
    method: 'GET', path: '/apps/:appId/journeys/:journeyId/people',
    summary: 'Find a person in a journey by customer id, e-mail or person id: their entries, where they are and every step passed, with the path and what decided it',
    auth: VIEW, query: JourneyPersonSearchQuery, response: JourneyPersonSearchAnswer,
  }),
  personJourneys: ep({
    method: 'GET', path: '/apps/:appId/people/:personId/journeys',
    summary: "A person's journey entries, newest first (at most 100), each with every step passed and when",
    auth: 'route:/behavior/people', response: PersonJourneysAnswer,
  }),
} as const;
