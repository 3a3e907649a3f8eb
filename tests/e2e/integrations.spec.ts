/**
 * Integrations as an account's owner uses them: an OAuth 2 integration (a social ad platform
 * pointed at a loopback authorization server, tests/support/oauthServer.ts) is created through the
 * dialog, connected through the provider's authorize page ("Allow"), and shows "Connected"; its
 * connection test sees the ad account. A refused authorization comes back with the oauth error.
 */
import { expect, test } from '@playwright/test';
import { call } from '../support/api.ts';
import { AFTER_LOAD, signIn } from '../support/people.ts';
import { startOAuthServer } from '../support/oauthServer.ts';

test('create an OAuth 2 integration, connect it through the authorize page and see it connected', async ({ browser }) => {
  const oauth = await startOAuthServer({ accounts: ['7788990011'] });
  const name = `Meta ${Date.now().toString(36)}`;
  try {
    const { page, context } = await signIn(browser, 'client@demo.growthdeck.test');
    await page.goto('/manage/integrations');
    await expect(page.getByRole('heading', { name: 'Integrations', exact: true })).toBeVisible(AFTER_LOAD);

    await page.getByTestId('integration-add').first().click();
    const dialog = page.getByRole('dialog', { name: 'Add an integration' });
    await expect(dialog.getByTestId('redirect-uri')).toHaveText(/\/api\/oauth\/callback$/);
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Client secret').fill(oauth.clientSecret);
    await dialog.getByLabel('Client ID').fill(oauth.clientId);
    await dialog.getByLabel('Ad account ID').fill('7788990011');
    await dialog.getByLabel('API address').fill(oauth.url);
    await dialog.getByLabel('Authorization endpoint').fill(`${oauth.url}/authorize`);
    await dialog.getByLabel('Token endpoint').fill(`${oauth.url}/token`);
    await dialog.getByTestId('integration-save').click();
    await expect(dialog).toBeHidden();

    const row = page.getByTestId('integration-row').filter({ hasText: name });
    await expect(row.getByTestId('integration-status')).toHaveText('Not connected');
    await row.getByTestId('integration-connect').click();
    // The provider's consent page, then back to the screen.
    await expect(page.getByRole('heading', { name: `Authorize ${oauth.clientId}` })).toBeVisible();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page).toHaveURL(/\/manage\/integrations$/);
    await expect(page.getByTestId('oauth-return')).toContainText(`Authorized: ${name} is connected.`);
    await expect(row.getByTestId('integration-status')).toHaveText('Connected');
    expect(oauth.tokenRequests.map((r) => [r.grantType, r.status])).toEqual([['authorization_code', 200]]);

    await row.getByTestId('integration-test').click();
    await expect(page.getByTestId('integration-test-outcome')).toContainText('7788990011');

    // Reconnect and deny: the screen says the authorization failed, with the reason on the row.
    await row.getByTestId('integration-connect').click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByTestId('oauth-return')).toContainText('Authorization failed');
    await expect(row.getByTestId('integration-status')).toHaveText('Error');
    await expect(row.getByTestId('integration-reason')).toContainText('access_denied');

    // The integration is in the app's list through the API too (secrets never in it).
    const meta = await call(context.request, 'GET', '/user/meta') as { apps: { id: string }[] };
    const { integrations } = await call(context.request, 'GET', `/apps/${meta.apps[0]!.id}/integrations`) as { integrations: { id: string; name: string }[] };
    const mine = integrations.find((i) => i.name === name);
    expect(mine).toBeDefined();
    await context.close();
  } finally {
    await oauth.close();
  }
});
