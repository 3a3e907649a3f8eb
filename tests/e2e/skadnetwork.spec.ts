/**
 * SKAdNetwork as a growth marketer uses it: a fresh account's iOS app with a campaign (through the
 * API), its App Store id and a source identifier mapped to the campaign in Settings; Apple's own
 * documented 4.0 postbacks (signed with Apple's published key, which the server checks by
 * default) arrive at the developer-copy address, with a forged one; the figures show both installs
 * on the campaign (the low-tier identifier 39 is the end of 5239), the postbacks list shows the forgery rejected,
 * and mapping fine value 63 in the conversion-value editor decodes the install into an event and
 * a revenue range.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
// "Verifying an install-validation postback" (Apple): two verified example postbacks of app 525463029.
const APPLE_FINE = {
  version: '4.0', 'ad-network-id': 'com.example', 'source-identifier': '5239', 'app-id': 525463029, 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e30',
  redownload: false, 'source-domain': 'example.com', 'fidelity-type': 1, 'did-win': true, 'conversion-value': 63, 'postback-sequence-index': 0,
  'attribution-signature': 'MEUCIGRmSMrqedNu6uaHyhVcifs118R5z/AB6cvRaKrRRHWRAiEAv96ne3dKQ5kJpbsfk4eYiePmrZUU6sQmo+7zfP/1Bxo=',
};
const APPLE_COARSE = {
  version: '4.0', 'ad-network-id': 'com.example', 'source-identifier': '39', 'app-id': 525463029, 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e31',
  redownload: false, 'source-domain': 'example.com', 'fidelity-type': 1, 'did-win': true, 'coarse-conversion-value': 'high', 'postback-sequence-index': 0,
  'attribution-signature': 'MEUCIQD4rX6eh38qEhuUKHdap345UbmlzA7KEZ1bhWZuYM8MJwIgMnyiiZe6heabDkGwOaKBYrUXQhKtF3P/ERHqkR/XpuA=',
};

async function postback(request: APIRequestContext, body: unknown) {
  const res = await request.post('/.well-known/skadnetwork/report-attribution', { data: body });
  expect(res.status()).toBe(200);
  return (await res.json()) as { stored: boolean; verified: boolean };
}

test('map a campaign, receive Apple\'s postbacks, reject a forgery and decode the conversion value', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Sam Skan', email: `skan.${suffix}@e2e.example.com`, password: 'Skan-Pass-2026!', accountName: `Skan ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Skan Shop', os: 'iOS', timezone: 'UTC' })) as { app: { id: string } };
  const { source } = (await call(page.request, 'POST', `/apps/${app.id}/acquisition/sources`, { name: 'Example network', type: 'adnetwork' })) as { source: { id: string } };
  await call(page.request, 'POST', `/apps/${app.id}/acquisition/campaigns`, { name: 'Spring SKAN', sourceId: source.id, pricingModel: 'cpi', costValue: 1.5 });

  await page.goto('/acquisition/skadnetwork?tab=settings');
  await page.getByTestId('skan-app-store-id').fill('525463029');
  await page.getByTestId('skan-add-mapping').click();
  const mapping = page.getByTestId('skan-mapping-row');
  await mapping.getByRole('textbox', { name: 'Ad network id' }).fill('com.example');
  await mapping.getByRole('textbox', { name: 'Source identifier' }).fill('5239');
  await mapping.getByTestId('skan-mapping-campaign').click();
  await page.getByRole('option', { name: /Spring SKAN/ }).click();
  await page.getByTestId('skan-settings-save').click();
  await expect(page.getByText('Changes saved.')).toBeVisible();

  expect(await postback(page.request, APPLE_FINE)).toMatchObject({ stored: true, verified: true });
  expect(await postback(page.request, APPLE_COARSE)).toMatchObject({ stored: true, verified: true });
  expect(await postback(page.request, { ...APPLE_COARSE, 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e99' })).toMatchObject({ stored: true, verified: false });

  await page.getByRole('tab', { name: 'Figures' }).click();
  const rows = page.getByTestId('skan-figure-row');
  // The coarse postback's identifier "39" is the last two digits of 5239 (a lower privacy tier): the same campaign.
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Spring SKAN');
  await expect(page.getByTestId('skan-totals')).toHaveText('2 installs · 1 rejected postbacks');

  await page.getByRole('tab', { name: 'Postbacks' }).click();
  await expect(page.getByTestId('skan-postback-row')).toHaveCount(3);
  await page.getByTestId('skan-filter-verified').click();
  await page.getByRole('option', { name: 'Rejected' }).click();
  await expect(page.getByTestId('skan-postback-row')).toHaveCount(1);

  await page.getByRole('tab', { name: 'Conversion values' }).click();
  await page.getByTestId('skan-add-fine').click();
  const fine = page.getByTestId('skan-fine-row');
  await fine.getByRole('textbox', { name: 'Fine value' }).fill('63');
  await fine.getByRole('textbox', { name: /Events$/ }).fill('purchase');
  await fine.getByRole('textbox', { name: /Revenue from$/ }).fill('20');
  await fine.getByRole('textbox', { name: /Revenue to$/ }).fill('50');
  await page.getByTestId('skan-schema-save').click();
  await expect(page.getByTestId('skan-fine-row').getByRole('textbox', { name: 'Fine value' })).toHaveValue('63');
  await expect(page.getByText('Changes saved.').last()).toBeVisible();

  await page.getByRole('tab', { name: 'Figures' }).click();
  await expect(rows.first()).toContainText('purchase · 1');
  await expect(rows.first()).toContainText('$20.00 – $50.00');
});
