/** The simulation of a journey (schemas/journeySimulation.ts): what seeing the journey needs. */
import { JourneySimulationAnswer, JourneySimulationRequest } from '../schemas/journeySimulation.ts';
import { ep } from './define.ts';

export const journeySimulationEndpoints = {
  simulateJourney: ep({
    method: 'POST', path: '/apps/:appId/journeys/:journeyId/simulate', auth: { or: ['ui:journey.view', 'ui:journey.view:owner'] },
    request: JourneySimulationRequest, response: JourneySimulationAnswer,
    summary: 'Runs one person through the draft or the launched version against a simulated clock, with a described behaviour ' +
      '(or a person of the app for the splits): the steps they would pass, when, and what would be sent. Nothing is sent',
  }),
} as const;
