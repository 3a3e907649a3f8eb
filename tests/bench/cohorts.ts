/**
 * Cohorts over 10 million events and a million people: POST /api/apps/:appId/cohorts/query through
 * the real server (scripts/serve.ts in its own process) on the analytics set of
 * tests/bench/data/analyticsSet.ts (loaded once, kept between runs), p50/p95 over RUNS timed runs
 * after two warm-ups. Target (issue 15): retention of 12 weeks p50 < 1 s.
 *
 * Queries: first-time installs by week with any event as the return (12 weekly cohorts, 12
 * periods) from the person-month bitmaps, the same "on or after", a recurring product_view →
 * add_to_cart by week, a breakdown by country, and (for information, no target) a start event with
 * a property filter, which reads the events table.
 */
import { CSRF_HEADER, addDays, endpoints, fillPath, type CohortQueryInput } from '@gd/shared';
import { ensureAnalyticsSet } from './data/analyticsSet.ts';
import { fmt, percentile, startServerProcess, benchSignIn } from './support.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 12);
const PORT = 4623;


const set = await ensureAnalyticsSet();
const server = await startServerProcess({ DATABASE_URL: set.url, WORKER: 'off' }, PORT);
try {
  const auth = await benchSignIn(server.base, set.accountEmail, set.password);
  const url = `${server.base}/api${fillPath(endpoints.cohort.path, { appId: set.appId })}`;
  // 12 whole ISO weeks ending with the data's last day.
  const range = { startDay: addDays(set.range.endDay, -83), endDay: set.range.endDay };
  const run = async (label: string, query: CohortQueryInput, target: number | null) => {
    const once = async () => {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', cookie: auth.cookie, [CSRF_HEADER]: auth.csrf }, body: JSON.stringify(query) });
      const body = (await res.json()) as { status: string; size?: number; rows?: unknown[]; source?: string; curve?: { rate: number | null }[] };
      const ms = performance.now() - t0;
      if (body.status !== 'OK') throw new Error(`${label}: ${JSON.stringify(body)}`);
      return { ms, body };
    };
    const first = await once();
    await once();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await once()).ms);
    times.sort((a, b) => a - b);
    const rate = first.body.curve?.[1]?.rate;
    console.log(`${label} [${first.body.source}, ${first.body.rows?.length} cohorts, ${first.body.size?.toLocaleString('en')} people, period 1 ${rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)}%`}]`);
    console.log(`  first ${fmt(first.ms)}; ${RUNS} runs: p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  max ${fmt(times.at(-1) ?? NaN)}${target ? `  (target < ${target} ms)` : ''}`);
  };
  const base = { ...range, period: 'week', periods: 12 } as const;
  await run('retention 12 weeks: first gd_install → any event, on', { ...base, start: { event: 'gd_install' }, return: null }, 1000);
  await run('retention 12 weeks: first gd_install → any event, on or after', { ...base, start: { event: 'gd_install' }, return: null, returnOn: 'onOrAfter' }, 1000);
  await run('retention 12 weeks: recurring product_view → add_to_cart', { ...base, start: { event: 'product_view' }, return: { event: 'add_to_cart' }, mode: 'recurring' }, 1000);
  await run('retention 12 weeks: first gd_install → any event by country', { ...base, start: { event: 'gd_install' }, return: null, breakdown: { kind: 'attribute', field: 'country' } }, 1000);
  await run('retention 12 weeks: gd_transaction with payment = card (events table)', { ...base, start: { event: 'gd_transaction', filters: [{ property: 'payment', op: 'eq', value: 'card' }] }, return: null }, null);
} finally {
  await server.stop();
}
