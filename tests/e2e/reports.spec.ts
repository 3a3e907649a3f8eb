/**
 * Scheduled reports as a marketer uses them: a fresh account whose app received purchases, with a
 * mail provider pointing at a loopback SMTP server this spec runs (the customer's mail server
 * stands in); the person schedules a daily explore report by e-mail in the form, runs it now, sees
 * it ready with its row count, and downloads the csv: the file is the one e-mailed, and its rows
 * are the explore answer for the run's days.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { call, parseCsv } from '../support/api.ts';

const suffix = Date.now().toString(36);
const DAY = 86_400_000;
const received: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let smtpPort: number;

test.beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The base64 attachment of a raw MIME message. */
function attachment(raw: string): { filename: string; content: Buffer } {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1] ?? '';
  const part = raw.split(`--${boundary}`).find((p) => /filename=/i.test(p)) ?? '';
  const filename = /filename="?([^";\r\n]+)"?/i.exec(part)?.[1] ?? '';
  return { filename, content: Buffer.from(part.split(/\r?\n\r?\n/).slice(1).join('').replace(/\s+/g, ''), 'base64') };
}

test('schedule an explore report by e-mail, run it now, see it ready and download the csv', async ({ page }) => {
  const recipient = `ana.${suffix}@e2e.example.com`;
  await call(page.request, 'POST', '/auth/register', {
    name: 'Rita Reports', email: `reports.${suffix}@e2e.example.com`, password: 'Reports-Pass-2026!', accountName: `Reports ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop Madrid', os: 'Android', timezone: 'Europe/Madrid' })) as { app: { id: string; appKey: string } };
  const now = Date.now();
  const res = await page.request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': app.appKey },
    data: {
      device: { id: `e2e-reports-${suffix}`, os: 'Android', appVersion: '1.0.0', country: 'ES' },
      events: [1, 1, 2, 3, 4].map((d, i) => ({ id: `r-${i}-${suffix}`, name: 'purchase', time: new Date(now - d * DAY - i * 60_000).toISOString() })),
    },
  });
  expect(((await res.json()) as { accepted: string[] }).accepted).toHaveLength(5);
  const { provider } = (await call(page.request, 'POST', '/mail-providers', {
    name: 'Loopback relay', host: '127.0.0.1', port: smtpPort, tls: 'none', username: '', senderName: 'Reports', senderEmail: 'reports@e2e.example.com',
  })) as { provider: { id: string } };
  await call(page.request, 'POST', `/mail-providers/${provider.id}/activate`);

  await page.goto('/main/reports');
  await expect(page.getByText('No scheduled reports yet')).toBeVisible();
  await page.getByTestId('new-report').first().click();
  const form = page.getByTestId('report-form');
  // Saved from the bottom of the long form with nothing filled in: the first field to fix is
  // brought back into view and focused (on a laptop's screen the form is taller than its dialog).
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('report-save').scrollIntoViewIfNeeded();
  const name = form.getByLabel('Name');
  await expect(name).not.toBeInViewport();
  await page.getByTestId('report-save').click();
  await expect(name).toBeFocused();
  await expect(name).toBeInViewport();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await page.setViewportSize({ width: 1440, height: 900 });
  await name.fill('Daily purchases');
  await form.getByLabel('Event').fill('purchase');
  await form.getByLabel('Recipients').fill(recipient);
  await form.getByLabel('Recipients').press('Enter');
  await page.getByTestId('report-save').click();

  const row = page.getByTestId('report-row').filter({ hasText: 'Daily purchases' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Daily at 08:00');
  await expect(row.getByTestId('report-target')).toHaveText(recipient);
  await expect(row.getByTestId('report-next-run')).toBeVisible();
  await expect(row).toContainText('Never');

  await row.getByTestId('report-run-now').click();
  await expect(row.getByTestId('run-status')).toHaveText('Ready', { timeout: 20_000 });

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('run-download').click()]);
  expect(download.suggestedFilename()).toMatch(/^Daily-purchases-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = await readFile(await download.path());
  const rows = parseCsv(file.toString('utf8'));
  expect(rows[0]).toEqual(['date', 'events']);

  // The same file went to the recipient through the account's mail provider.
  const mail = received.find((m) => m.to.includes(recipient));
  expect(mail).toBeDefined();
  const attached = attachment(mail!.raw);
  expect(attached.filename).toBe(download.suggestedFilename());
  expect(attached.content.equals(file)).toBe(true);

  // Its rows are the explore answer for the run's days.
  const { reports } = (await call(page.request, 'GET', `/apps/${app.id}/reports`)) as { reports: { lastRun: { startDay: string; endDay: string; rowCount: number } }[] };
  const run = reports[0]!.lastRun;
  const answer = (await call(page.request, 'GET', `/apps/${app.id}/explore?event=purchase&startDay=${run.startDay}&endDay=${run.endDay}`)) as { buckets: string[]; series: { values: number[]; total: number }[] };
  expect(rows.slice(1)).toEqual(answer.buckets.map((b, i) => [b, String(answer.series[0]!.values[i])]));
  expect(answer.series[0]!.total).toBe(5);
  expect(run.rowCount).toBe(answer.buckets.length);
  await expect(row).toContainText(`${answer.buckets.length} rows`);

  // The runs dialog lists the run with its status, rows and size.
  await row.getByTestId('report-runs').click();
  const runRow = page.getByTestId('run-row');
  await expect(runRow).toHaveCount(1);
  await expect(runRow).toContainText('Run now');
  await expect(runRow.getByTestId('run-status')).toHaveText('Ready');
});
