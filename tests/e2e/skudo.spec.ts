/**
 * Skudo as its two kinds of people use it: the account's owner (the marketplace set up through the
 * API: a provider, an active offer, a partner with a tracking URL) opens /products/skudo, sees the
 * offer and generates a one-time sign-in code for the partner; the partner, in a browser of their
 * own with no account session, signs in at /skudo/login (a wrong code first: 20004's words), sees
 * their offer and tracking URL, whose click is then counted, and signs out.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { AFTER_LOAD, signIn } from '../support/people.ts';

async function post(request: APIRequestContext, path: string, data: unknown): Promise<Record<string, unknown>> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const body = (await (await request.post(`/api${path}`, { headers: { 'x-csrf-token': csrfToken }, data })).json()) as Record<string, unknown>;
  expect(body.status, JSON.stringify(body)).toBe('OK');
  return body;
}

test('hand a partner a sign-in code; they sign in at /skudo/login and see their offer and clicks', async ({ browser }) => {
  const tag = Date.now().toString(36);
  const owner = await signIn(browser, 'client@demo.growthdeck.test');
  const { provider } = await post(owner.context.request, '/skudo/providers', { name: `Provider ${tag}` }) as { provider: { id: string } };
  const { offer } = await post(owner.context.request, '/skudo/offers', {
    providerId: provider.id, title: `Hiking boots ${tag}`, payoutModel: 'cpl', payoutAmount: 2.5, currency: 'USD',
    destinationUrl: 'https://shop.example.com/boots', status: 'active',
  }) as { offer: { id: string } };
  const { partner } = await post(owner.context.request, '/skudo/partners', { name: `Partner ${tag}`, email: `partner.${tag}@example.com` }) as { partner: { id: string } };
  const { url } = await post(owner.context.request, `/skudo/offers/${offer.id}/urls`, { partnerId: partner.id }) as { url: { url: string } };

  // The owner sees the offer and hands over a code.
  await owner.page.goto('/products/skudo');
  await expect(owner.page.getByRole('heading', { name: 'Skudo' })).toBeVisible(AFTER_LOAD);
  await expect(owner.page.getByTestId('skudo-offer-row').filter({ hasText: `Hiking boots ${tag}` })).toContainText('1 of 1');
  await owner.page.getByRole('tab', { name: 'Partners' }).click();
  await owner.page.getByTestId('skudo-partner-row').filter({ hasText: `Partner ${tag}` }).getByTestId('skudo-partner-code').click();
  const code = (await owner.page.getByTestId('skudo-code').textContent({ timeout: AFTER_LOAD.timeout })) ?? '';
  expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);

  // The partner: a browser of their own, no account session.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/skudo/login');
  await expect(page.getByRole('heading', { name: 'Skudo partner sign-in' })).toBeVisible(AFTER_LOAD);
  await page.getByTestId('skudo-login-code').fill('AAAA-BBBB-CCCC');
  await page.getByTestId('skudo-login-submit').click();
  await expect(page.getByText('That sign-in code is not valid, or it has already been used.')).toBeVisible();
  await page.getByTestId('skudo-login-code').fill(code.toLowerCase());
  await page.getByTestId('skudo-login-submit').click();
  await expect(page).toHaveURL(/\/skudo\/offers$/);
  await expect(page.getByTestId('skudo-partner-name')).toHaveText(`Signed in as Partner ${tag}`);
  const card = page.getByTestId('skudo-partner-offer').filter({ hasText: `Hiking boots ${tag}` });
  await expect(card).toContainText('$2.50 · Per lead');
  const row = card.getByTestId('skudo-partner-url');
  await expect(row).toContainText(url.url);
  await expect(row).toContainText('Redirecting');

  // Someone follows the partner's tracking URL: redirected, and the click shows on the partner's page.
  // (A person's browser: the host stores requests it takes for bots, such as the test runner's own agent, without counting them.)
  const person = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' };
  const click = await context.request.get(new URL(url.url).pathname, { maxRedirects: 0, headers: person });
  expect(click.status()).toBe(302);
  expect(click.headers().location).toMatch(/^https:\/\/shop\.example\.com\/boots\?skudo_click=/);
  await page.reload();
  await expect(page.getByTestId('skudo-partner-offer').filter({ hasText: `Hiking boots ${tag}` }).getByTestId('skudo-partner-url').getByRole('cell').nth(3)).toHaveText('1');

  // The code was used once; signing out goes back to the sign-in page.
  await page.getByTestId('skudo-partner-signout').click();
  await expect(page).toHaveURL(/\/skudo\/login$/);
  await page.getByTestId('skudo-login-code').fill(code);
  await page.getByTestId('skudo-login-submit').click();
  await expect(page.getByText('That sign-in code is not valid, or it has already been used.')).toBeVisible();
  await context.close();
  await owner.context.close();
});
