/**
 * The apptracker as the demo owner uses it: a source made in the sources drawer, a campaign made
 * with the dialog (listed with its source and pricing), cloned and the copy deleted, the CSV
 * download of the list; and the provider view as the demo Provider user, a member of the demo's
 * Meta Ads provider, who sees only that provider's campaigns.
 */
import { expect, test } from '@playwright/test';
import { AFTER_LOAD, signIn } from '../support/people.ts';

test('create a source and a campaign, clone it, delete the copy, download the list', async ({ browser }) => {
  const { page, context } = await signIn(browser, 'client@demo.growthdeck.test');
  const suffix = Date.now().toString(36);
  const source = `E2E source ${suffix}`;
  const campaign = `E2E campaign ${suffix}`;
  await page.goto('/acquisition/apptracker');
  await expect(page.getByRole('heading', { name: 'App tracker', exact: true })).toBeVisible(AFTER_LOAD);

  await page.getByTestId('sources-open').click();
  await page.getByTestId('source-add').click();
  const sourceDialog = page.getByRole('dialog', { name: 'Create a source' });
  await sourceDialog.getByLabel('Name', { exact: true }).fill(source);
  await sourceDialog.getByTestId('source-submit').click();
  await expect(sourceDialog).toBeHidden();
  await expect(page.getByTestId('source-row').filter({ hasText: source })).toContainText('Last click');
  await page.keyboard.press('Escape');

  await page.getByTestId('campaign-add').click();
  const dialog = page.getByRole('dialog', { name: 'Create a campaign' });
  await dialog.getByLabel('Name', { exact: true }).fill(campaign);
  await dialog.getByTestId('campaign-source').click();
  await page.getByRole('option', { name: source }).click();
  await dialog.getByTestId('campaign-pricing').click();
  await page.getByRole('option', { name: /^CPC/ }).click();
  await dialog.getByTestId('campaign-cost').fill('0.3');
  await dialog.getByTestId('campaign-submit').click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('campaign-row').filter({ hasText: campaign });
  await expect(row.first()).toContainText(source);
  await expect(row.first()).toContainText('per click');

  await row.first().getByRole('button', { name: 'Clone' }).click();
  const clone = page.getByRole('dialog', { name: 'Clone campaign' });
  await expect(clone.getByLabel('Name')).toHaveValue(`${campaign} (copy)`);
  await clone.getByRole('button', { name: 'Clone' }).click();
  const copy = page.getByTestId('campaign-row').filter({ hasText: `${campaign} (copy)` });
  await expect(copy).toBeVisible();
  await copy.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this campaign?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(copy).toHaveCount(0);

  const href = await page.getByTestId('campaigns-download').getAttribute('href');
  const csv = await (await context.request.get(href ?? '')).text();
  expect(csv.split('\r\n')[0]).toContain('campaign,source,source_type');
  expect(csv).toContain(campaign);
  await context.close();
});

test('a provider member sees only their provider\'s campaigns', async ({ browser }) => {
  const { page, context } = await signIn(browser, 'provider@demo.growthdeck.test');
  await page.goto('/acquisition/apptracker-provider-view');
  await expect(page.getByTestId('provider-member')).toContainText('Meta Ads', AFTER_LOAD);
  const rows = page.getByTestId('campaign-row');
  await expect(rows.first()).toBeVisible(AFTER_LOAD);
  const sources = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[1]?.textContent ?? ''));
  expect(sources.length).toBeGreaterThan(0);
  expect(sources.every((s) => s.startsWith('Social Ads'))).toBe(true);
  await context.close();
});
