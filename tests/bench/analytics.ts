/**
 * Explore at full speed (issue 15) on the analytics data set (data/analyticsSet.ts: 10M events,
 * ~1M people, 120 days): GET /api/apps/:appId/explore against the real server (scripts/serve.ts in
 * its own process), p50/p95 over RUNS timed runs after two warm-ups, for
 * - a breakdown by an event property marked as a breakdown (product_view by category, 30 days by
 *   day, with the previous period): the property rollup;
 * - distinct people per day over 30 days, per week over 12 weeks, and events per person (with the
 *   previous period): the person structures;
 * and, for comparison, the events-table path they replace (a property not marked, distinct people
 * by country), timed fewer times. Target: p50 < 300 ms for the first two kinds.
 */
import { addDays, endpoints, fillPath, rangeQuery } from '@gd/shared';
import { ensureAnalyticsSet } from './data/analyticsSet.ts';
import { fmt, percentile, startServerProcess, benchSignIn } from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4651);
const RUNS = 20, SLOW_RUNS = 3;


interface Figure { label: string; source: string; p50: number; p95: number; runs: number }

async function time(label: string, url: string, cookie: string, runs: number): Promise<Figure> {
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = (await res.json()) as { status: string; source?: string; series?: { total: number }[] };
    const ms = performance.now() - t0;
    if (body.status !== 'OK') throw new Error(`${label}: ${JSON.stringify(body)}`);
    return { ms, body };
  };
  const first = await once();
  await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await once()).ms);
  times.sort((a, b) => a - b);
  const figure = { label, source: first.body.source ?? '?', p50: percentile(times, 50), p95: percentile(times, 95), runs };
  console.log(`${label} [${figure.source}, ${first.body.series?.length} series, total ${first.body.series?.[0]?.total.toLocaleString('en')}]`);
  console.log(`  first ${fmt(first.ms)}; ${runs} runs: p50 ${fmt(figure.p50)}  p95 ${fmt(figure.p95)}`);
  return figure;
}

const set = await ensureAnalyticsSet();
const server = await startServerProcess({ DATABASE_URL: set.url, WORKER: 'off' }, PORT);
try {
  const cookie = (await benchSignIn(server.base, set.accountEmail, set.password)).access;
  const base = `${server.base}/api${fillPath(endpoints.explore.path, { appId: set.appId })}`;
  const end = set.range.endDay;
  const days30 = { startDay: addDays(end, -29), endDay: end };
  const weeks12 = { startDay: addDays(end, -83), endDay: end };
  const url = (q: Record<string, string>) => `${base}?${rangeQuery({ timeGroup: 'day', ...days30, ...q })}`;
  const figures = [
    await time('product_view by property "category" (marked), per day, 30 days, with previous period', url({ event: 'product_view', breakdown: 'property', property: 'category', compare: 'true' }), cookie, RUNS),
    await time('product_view distinct people per day, 30 days, with previous period', url({ event: 'product_view', metric: 'people', compare: 'true' }), cookie, RUNS),
    await time('gd_start_session distinct people per week, 12 weeks', url({ event: 'gd_start_session', metric: 'people', timeGroup: 'week', ...weeks12 }), cookie, RUNS),
    await time('e_screen_name events per person per day, 30 days', url({ event: 'e_screen_name', metric: 'eventsPerPerson' }), cookie, RUNS),
    await time('(events table) product_view by property "price" (not marked), per day, 30 days', url({ event: 'product_view', breakdown: 'property', property: 'price' }), cookie, SLOW_RUNS),
    await time('(events table) product_view distinct people by country, per day, 30 days', url({ event: 'product_view', metric: 'people', breakdown: 'country' }), cookie, SLOW_RUNS),
  ];
  console.log('\n| query | source | p50 | p95 | runs |\n|---|---|---|---|---|');
  for (const f of figures) console.log(`| ${f.label} | ${f.source} | ${fmt(f.p50)} | ${fmt(f.p95)} | ${f.runs} |`);
} finally {
  await server.stop();
}
