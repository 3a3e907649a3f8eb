/**
 * What the engine's integration test files share: an API on the test database with one account
 * (each test makes its own app: `newWorld`), the far clock they run on (2100, never reached by a
 * real-clock worker of another file), and the helpers that move it.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Segment } from '@gd/shared';
import { DEFAULT_JOURNEY_SETTINGS, type JourneySettings } from '@gd/shared/journey/settings';
import { createConditionNode, createGroupNode } from '@gd/shared/segment/model';
import { createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../../testing/harness.ts';
import { HOUR, type TestClock, type World, type worker } from './world.ts';

export const START = Date.parse('2100-01-04T09:00:00Z');

export function journeySuite() {
  let api: TestApi | undefined;
  let owner: Awaited<ReturnType<typeof registerAccount>> | undefined;
  beforeAll(async () => {
    api = await startTestApi();
    owner = await registerAccount(api);
  });
  afterAll(async () => {
    await api?.stop();
  });
  const ready = () => {
    if (!api || !owner) throw new Error('the suite has not started');
    return { api, owner };
  };
  return {
    get api(): TestApi { return ready().api; },
    get owner() { return ready().owner; },
    /** A fresh app of the account (each test its own). */
    async newWorld(): Promise<World & { client: TestClient }> {
      const { api: a, owner: o } = ready();
      const app = await createTestApp(o.client);
      return { db: a.db, accountId: o.accountId, appId: app.id, userId: o.userId, client: o.client };
    },
  };
}

export const settings = (patch: Partial<JourneySettings>): JourneySettings => ({ ...structuredClone(DEFAULT_JOURNEY_SETTINGS), ...patch });
export const countryIs = (code: string): Segment => ({ rootKey: 'root', nodes: [{ ...createGroupNode('root'), children: ['c1'] }, createConditionNode('c1', { type: 'attribute', id: 'country', condition: 'equals', input: code })] });

/** Moves the clock by `step` up to `total`, letting the engine work at each moment. */
export async function run(w: ReturnType<typeof worker>, clock: TestClock, total: number, step = HOUR, each?: (t: number) => Promise<void>): Promise<void> {
  for (let t = 0; t <= total; t += step) {
    await each?.(t);
    await w.drain({ postbacks: true });
    clock.advance(step);
  }
}
