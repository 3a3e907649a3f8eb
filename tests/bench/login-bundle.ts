/**
 * The JavaScript the login page loads, gzip-compressed, as Chromium fetches it from the built app.
 * Target (issue 2): under 200 KB.
 */
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { freshDatabase, startServerProcess } from './support.ts';

const db = await freshDatabase('gd_bench_bundle');
const server = await startServerProcess({ DATABASE_URL: db.url, WORKER: 'off', SEED_DEMO: 'off' }, 4291);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    void res.body().then((body) => scripts.push({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }));
  });
  await page.goto(`${server.base}/login`, { waitUntil: 'networkidle' });
  await page.getByLabel(/e-mail/i).first().waitFor();
  const total = scripts.reduce((s, x) => s + x.gzip, 0);
  const raw = scripts.reduce((s, x) => s + x.raw, 0);
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB gz  ${(s.raw / 1024).toFixed(1).padStart(7)} KB  ${s.url}`);
  console.log(`login page JavaScript: ${(total / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw) in ${scripts.length} files (target < 200 KB)`);
} finally {
  await browser.close();
  await server.stop();
  await db.drop();
}
