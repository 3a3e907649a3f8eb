/**
 * Delivery end to end (issue 13): the account's owner adds a mail provider (a real SMTP server on
 * loopback, started here), writes an e-mail message to the app's test devices, submits it,
 * approves it and plays it; the e-mail reaches the SMTP server once, personalised, with its
 * unsubscribe header; its tracked link redirects to the link written and its open pixel answers;
 * the message screen's delivery panel shows it sent and the message Finished, its metrics show the
 * open and the click, and /communication/report lists it.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { startSmtpSink } from '../../api-server/src/features/delivery/testing/smtpSink.ts';
import { AFTER_LOAD, CLIENT, OPEN, apiCall, clickAction, contentField, setApprovalPolicy, signIn, status, suffix, targetTestDevices } from '../support/messages.ts';

const appIdOf = (page: Page) => page.evaluate(() => (window as unknown as { __gdSync: { names(): string[] } }).__gdSync.names()[0]?.split('/')[1] ?? '');
const decodeQuotedPrintable = (s: string) => s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

test('an e-mail message approved and played reaches the inbox once, tracks its link and open, and shows as sent', async ({ browser }) => {
  test.slow();
  const sink = await startSmtpSink();
  const { page, context } = await signIn(browser, CLIENT.email);
  let providerId = '';
  try {
    await setApprovalPolicy(context, page, { required: 1, authorsMayApprove: true });
    const created = await apiCall(context, page, 'POST', '/mail-providers', {
      name: `Loopback ${suffix}`, host: '127.0.0.1', port: sink.port, tls: 'none', username: '', senderName: 'Demo team', senderEmail: 'team@example.com',
    });
    providerId = (created.body.provider as { id: string }).id;
    expect((await apiCall(context, page, 'POST', `/mail-providers/${providerId}/activate`)).status).toBe(200);

    // A new e-mail message, from the list.
    const name = `Winter news ${suffix}`;
    await page.goto('/communication/messaging');
    await page.getByTestId('new-message').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByTestId('new-message-type').click();
    await page.getByRole('option', { name: 'E-mail', exact: true }).click();
    await dialog.getByTestId('create-message').click();
    await expect(page.getByTestId('message-form')).toBeVisible(OPEN);
    const appId = await appIdOf(page);
    const messageId = new URL(page.url()).searchParams.get('id') ?? '';

    // The recipient: a device of the app that says who it is, registered as a test device.
    const email = `reader-${suffix}@example.com`;
    const { apps } = (await (await page.request.get('/api/apps')).json()) as { apps: { id: string; appKey: string }[] };
    const appKey = apps.find((a) => a.id === appId)?.appKey ?? '';
    const device = randomUUID();
    const identified = await page.request.post('/api/ingest/v1/identify', { headers: { 'x-app-key': appKey }, data: { device: { id: device, os: 'iOS' }, customerId: `reader-${suffix}`, profile: { email } } });
    expect(identified.status()).toBe(200);
    expect((await apiCall(context, page, 'POST', `/apps/${appId}/test-devices`, { name: `Reader ${suffix}`, idType: 'auto', deviceId: device })).status).toBe(200);

    for (const lang of ['en', 'es']) {
      await (await contentField(page, lang, 'sender_name')).fill('Demo team');
      await (await contentField(page, lang, 'sender_email')).fill('news@example.com');
      await (await contentField(page, lang, 'subject')).fill(`Winter news for {{customer_id}} (${lang})`);
      await (await contentField(page, lang, 'html_body')).fill('<p>Hello!</p><p><a href="https://shop.example.com/winter">See the collection</a></p>');
    }
    await targetTestDevices(page);
    await page.getByTestId('message-action-submit').click();
    await expect(status(page)).toHaveAttribute('data-status', 'To validate', AFTER_LOAD);
    const { message } = (await (await page.request.get(`/api/apps/${appId}/messages/${messageId}`)).json()) as { message: { submission: { id: string } } };
    expect((await apiCall(context, page, 'POST', `/apps/${appId}/messages/${messageId}/approve`, { submissionId: message.submission.id })).status).toBe(200);
    await expect(status(page)).toHaveAttribute('data-status', 'Approved', AFTER_LOAD);

    await clickAction(page, 'play');
    await page.getByRole('dialog').getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => sink.to(email).length, AFTER_LOAD).toBe(1);
    await expect(status(page)).toHaveAttribute('data-status', 'Finished', AFTER_LOAD);
    const panel = page.getByTestId('delivery-panel');
    await expect(panel.getByTestId('delivery-run')).toHaveAttribute('data-state', 'finished', AFTER_LOAD);
    await expect(panel.getByTestId('delivery-sent')).toContainText('1');
    await expect(panel.getByTestId('delivery-failed')).toContainText('0');

    const mail = sink.to(email)[0]!;
    expect(mail.headers.get('subject')).toBe(`Winter news for reader-${suffix} (en)`);
    expect(mail.headers.get('list-unsubscribe')).toMatch(/\/api\/email\/unsubscribe\//);
    const html = decodeQuotedPrintable(mail.raw);
    const click = /href="([^"]*\/api\/email\/click\/[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const pixel = /src="([^"]*\/api\/email\/open\/[^"]+\.gif)"/.exec(html)?.[1] ?? '';
    const redirected = await page.request.get(click, { maxRedirects: 0 });
    expect(redirected.status()).toBe(302);
    expect(redirected.headers().location).toBe('https://shop.example.com/winter');
    expect((await page.request.get(pixel)).headers()['content-type']).toBe('image/gif');
    // Nothing more arrives: one message per person.
    await page.waitForTimeout(1000);
    expect(sink.to(email)).toHaveLength(1);

    // The message's metrics show the open and the click (the panel asks again while the screen is open).
    const metrics = page.getByTestId('metrics-panel');
    await expect(metrics.getByTestId('metric-opens-value')).toHaveText('1', AFTER_LOAD);
    await expect(metrics.getByTestId('metric-clicks-value')).toHaveText('1', AFTER_LOAD);
    await expect(metrics.getByTestId('metric-sents-value')).toHaveText('1');
    await expect(metrics.getByTestId('metric-ctr-value')).toHaveText('100%');
    // The messages report lists it, with its figures, and links back to it.
    await page.goto('/communication/report');
    const row = page.getByTestId('report-row').filter({ hasText: name });
    await expect(row).toBeVisible(AFTER_LOAD);
    await row.getByRole('link', { name }).click();
    await expect(page.getByTestId('message-screen')).toBeVisible(AFTER_LOAD);
  } finally {
    if (providerId) {
      await apiCall(context, page, 'POST', `/mail-providers/${providerId}/deactivate`);
      await page.request.delete(`/api/mail-providers/${providerId}`, { headers: { 'x-csrf-token': (await context.cookies()).find((c) => c.name === 'gd_csrf')?.value ?? '' } });
    }
    await context.close();
    await sink.close();
  }
});
