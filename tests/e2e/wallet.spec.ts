/**
 * /products/wallet as a growth team uses it: with the account's Apple certificate set (a test CA
 * and pass certificate made in the run, sent through the API), design a loyalty card in the
 * designer (the live preview follows the typing), issue it to a person found by customer id with a
 * card number and security code, and download the signed .pkpass from the pass's link.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { makeTestSigning } from '../../api-server/src/features/wallet/testing.ts';
import { AFTER_LOAD, signInContext } from '../support/people.ts';

test('design a loyalty card, issue it to a person and download the signed pass', async ({ page }) => {
  test.slow();
  const suffix = Date.now().toString(36);
  const customerId = `e2e-member-${suffix}`;
  const design = `Club card ${suffix}`;
  await signInContext(page.context(), 'client@demo.growthdeck.test');
  const request = page.request;
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };

  // A person in every demo app (the shell opens on one of them), as the SDK identifies one.
  const apps = (await (await request.get('/api/apps')).json()) as { apps: { appKey: string }[] };
  for (const app of apps.apps) {
    const res = await request.post('/api/ingest/v1/identify', { headers: { 'x-app-key': app.appKey }, data: { device: { id: randomUUID(), os: 'iOS' }, customerId } });
    expect(((await res.json()) as { status: string }).status).toBe('OK');
  }
  // The account's Apple signing settings.
  const certs = makeTestSigning();
  const put = await request.put('/api/wallet/signing/apple', {
    headers: { 'x-csrf-token': csrfToken },
    data: { passTypeIdentifier: 'pass.com.demo.club', teamIdentifier: 'ABCDE12345', certificatePem: certs.certPem, privateKeyPem: certs.keyPem, wwdrPem: certs.caPem },
  });
  expect(((await put.json()) as { status: string }).status).toBe('OK');

  await page.goto('/products/wallet');
  await expect(page.getByRole('heading', { name: 'Wallet', level: 1 })).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('signing-apple')).toContainText('pass.com.demo.club');
  await expect(page.getByTestId('google-missing')).toBeVisible();

  // Design: a loyalty card whose primary field the preview shows as typed.
  await page.getByRole('button', { name: 'New design' }).first().click();
  const designer = page.getByRole('dialog', { name: 'New pass design' });
  await designer.getByLabel('Name', { exact: true }).fill(design);
  await designer.getByText('Loyalty card', { exact: true }).click();
  await expect(designer.getByTestId('placeholders')).toContainText('{{card_number}}');
  await designer.getByTestId('add-secondaryFields').click();
  await designer.getByLabel('Secondary 1: Label').fill('Level');
  await designer.getByLabel('Secondary 1: Value').fill('Gold member');
  await expect(designer.getByTestId('pass-preview')).toContainText('Gold member');
  await expect(designer.getByTestId('pass-preview')).toContainText('6275 9800 1234 5678');
  await designer.getByTestId('design-save').click();
  await expect(designer).toBeHidden();
  const row = page.getByTestId('design-row').filter({ hasText: design });
  await expect(row).toContainText('Loyalty card');

  // Issue it: the person by customer id, a card number with spaces and a security code.
  await row.getByTestId('design-issue').click();
  const issue = page.getByRole('dialog', { name: 'Issue a pass' });
  await issue.getByTestId('issue-person').fill(customerId);
  await page.getByRole('option', { name: new RegExp(customerId) }).click();
  await issue.getByLabel('Card number').fill('4111 1111 1111 1112');
  await issue.getByLabel('Security code').fill('4821');
  await issue.getByTestId('issue-save').click();
  await expect(issue.getByText('Enter 12 to 19 digits with a valid check digit.')).toBeVisible();
  await issue.getByLabel('Card number').fill('4111 1111 1111 1111');
  await issue.getByTestId('issue-save').click();
  await expect(issue).toBeHidden();

  const pass = page.getByTestId('pass-row').filter({ hasText: design });
  await expect(pass).toContainText('4111 1111 1111 1111');
  await expect(pass).not.toContainText('4821');

  // Download the signed pass from its Apple link.
  const download = page.waitForEvent('download');
  await pass.getByTestId('pass-apple').click();
  const file = await (await download).path();
  const files = unzipSync(new Uint8Array(readFileSync(file)));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['pass.json', 'manifest.json', 'signature', 'icon.png']));
  const json = JSON.parse(Buffer.from(files['pass.json']!).toString('utf8')) as { passTypeIdentifier: string; storeCard: { primaryFields: { value: string }[]; secondaryFields: { value: string }[] } };
  expect(json.passTypeIdentifier).toBe('pass.com.demo.club');
  expect(json.storeCard.primaryFields[0]?.value).toBe('4111 1111 1111 1111');
  expect(json.storeCard.secondaryFields.map((f) => f.value)).toContain('Gold member');
});
