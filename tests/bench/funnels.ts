/**
 * Funnels over 10 million events and a million people: GET /api/apps/:appId/funnels/query (the
 * query as JSON in q) through the real server (scripts/serve.ts in its own process) on the
 * analytics set of tests/bench/data/analyticsSet.ts (loaded once, kept between runs), p50/p95 over
 * RUNS timed runs (default 10) after two warm-ups. Target (issue 15): a funnel of 3 steps over 30
 * days with a 7-day window, p50 < 1 s.
 *
 * Queries: product_view → add_to_cart → checkout in order (the target, answered by the set-based
 * SQL path), with a breakdown by country, and for information the per-person path
 * (gd_funnel_eval): any order, and strict order (which reads every event of the people).
 */
import { addDays, endpoints, fillPath, type FunnelAnswer, type FunnelQueryInput } from '@gd/shared';
import { ensureAnalyticsSet } from './data/analyticsSet.ts';
import { fmt, percentile, startServerProcess, benchSignIn } from './support.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4615);


const set = await ensureAnalyticsSet();
const server = await startServerProcess({ DATABASE_URL: set.url, WORKER: 'off' }, PORT);
try {
  const cookie = (await benchSignIn(server.base, set.accountEmail, set.password)).access;
  const url = `${server.base}/api${fillPath(endpoints.funnel.path, { appId: set.appId })}`;
  const range = { startDay: addDays(set.range.endDay, -29), endDay: set.range.endDay };
  const base: FunnelQueryInput = {
    ...range, timeGroup: 'day', window: { value: 7, unit: 'day' }, order: 'sequential',
    steps: [{ event: 'product_view' }, { event: 'add_to_cart' }, { event: 'checkout' }],
  };
  const run = async (label: string, query: FunnelQueryInput, target: number | null, runs = RUNS) => {
    const once = async () => {
      const t0 = performance.now();
      const res = await fetch(`${url}?q=${encodeURIComponent(JSON.stringify(query))}`, { headers: { cookie } });
      const body = (await res.json()) as { status: string } & Partial<FunnelAnswer>;
      if (body.status !== 'OK') throw new Error(`${label}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - t0, body };
    };
    const first = await once();
    await once();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push((await once()).ms);
    times.sort((a, b) => a - b);
    const counts = first.body.total?.counts.map((c) => c.toLocaleString('en')).join(' → ');
    console.log(`${label} [${counts} people${first.body.breakdown?.length ? `, ${first.body.breakdown.length} series` : ''}]`);
    console.log(`  first ${fmt(first.ms)}; ${runs} runs: p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  max ${fmt(times.at(-1) ?? NaN)}${target ? `  (target p50 < ${target} ms)` : ''}`);
  };
  await run('funnel product_view → add_to_cart → checkout, 30 days, 7-day window, in order', base, 1000);
  // For information (fewer runs): a breakdown, and the per-person path (any order, strict order).
  await run('  the same by country', { ...base, breakdown: { kind: 'attribute', field: 'country' } }, null, 5);
  await run('  the same in any order', { ...base, order: 'any' }, null, 3);
  await run('  the same in strict order (every event of the people)', { ...base, order: 'strict' }, null, 3);
} finally {
  await server.stop();
}
