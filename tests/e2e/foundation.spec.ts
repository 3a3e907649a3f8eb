/**
 * The foundation as people use it: an owner registers, creates apps and invites an analyst; the
 * analyst signs in from the e-mailed link, sees what the role forbids disabled (and the API refuses
 * it anyway), switches app and switches the interface to Spanish.
 */
import { expect, test, type Page } from '@playwright/test';
import { linkIn, waitForMail } from '../support/mail.ts';
import { MANAGER, signIn } from '../support/people.ts';

const suffix = Date.now().toString(36);
const owner = { name: 'Olivia Owner', email: `owner.${suffix}@e2e.example.com`, password: 'Owner-Pass-2026!' };
const analyst = { name: 'Andrés Analyst', email: `analyst.${suffix}@e2e.example.com`, password: 'Analyst-Pass-2026!' };

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function createApp(page: Page, name: string, os: string) {
  await page.getByRole('button', { name: 'New app' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('App name').fill(name);
  await chooseOption(page, 'Operating system', os);
  await dialog.getByRole('button', { name: 'Create app' }).click();
  await expect(page.getByTestId('app-row').filter({ hasText: name })).toBeVisible();
}

test('register, create apps, invite a limited user who sees and is refused the forbidden actions, switch app and language', async ({ browser }) => {
  // The owner registers (a plan is required) and lands on the welcome screen.
  const ownerContext = await browser.newContext();
  const page = await ownerContext.newPage();
  await page.goto('/register');
  await page.getByLabel('Name', { exact: true }).fill(owner.name);
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByLabel('Account name').fill(`Shop ${suffix}`);
  await page.getByTestId('plan-growth').click();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/user\/welcome$/);

  // Two apps.
  await page.goto('/user/account/apps');
  await createApp(page, 'Shop iOS', 'iOS');
  await createApp(page, 'Shop Android', 'Android');

  // Invite an analyst.
  await page.goto('/user/account/users');
  await page.getByRole('button', { name: 'Invite user' }).click();
  const invite = page.getByRole('dialog');
  await invite.getByLabel('Name').fill(analyst.name);
  await invite.getByLabel('E-mail').fill(analyst.email);
  await chooseOption(page, 'Role', 'Analyst');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByTestId('user-row').filter({ hasText: analyst.email })).toContainText('Invited');

  // The analyst follows the e-mailed link in a browser of their own and chooses a password.
  const mail = await waitForMail(analyst.email, /auto-login\?token=/);
  const link = linkIn(mail, /https?:\/\/\S+auto-login\?token=[\w%-]+/);
  const analystContext = await browser.newContext();
  const other = await analystContext.newPage();
  await other.goto(link);
  await expect(other).toHaveURL(/\/user\/password/);
  await other.getByLabel('New password', { exact: true }).fill(analyst.password);
  await other.getByLabel('Repeat the new password').fill(analyst.password);
  await other.getByRole('button', { name: 'Change password' }).click();
  await expect(other.getByText('Your password has been changed.')).toBeVisible();
  await expect(other.getByTestId('form-error')).toHaveCount(0);

  // Forbidden actions are shown disabled, and the API refuses them anyway.
  await other.goto('/user/account/apps');
  await expect(other.getByTestId('app-row')).toHaveCount(2);
  await expect(other.getByRole('button', { name: 'New app' }).first()).toHaveAttribute('aria-disabled', 'true');
  await expect(other.getByRole('navigation').getByRole('link', { name: 'Roles' })).toHaveCount(0);
  await other.goto('/admin/roles');
  await expect(other.getByTestId('no-access')).toBeVisible();
  // The platform's own screens say what they are and where the account does the same, not only "no access".
  await page.goto('/admin/providers');
  await expect(page.getByTestId('platform-screen')).toContainText('Acquisition › Providers');
  const csrf = (await analystContext.cookies()).find((c) => c.name === 'gd_csrf')?.value ?? '';
  const refused = await other.request.post('/api/apps', { data: { name: 'Sneaky', os: 'iOS' }, headers: { 'x-csrf-token': csrf } });
  expect(await refused.json()).toMatchObject({ status: 'KO', code: 10004 });

  // Switching app shows a loading state, then reloads on the other app.
  await other.goto('/user/account/test-devices');
  const switcher = other.getByTestId('app-switcher');
  const before = (await switcher.textContent()) ?? '';
  const target = before.includes('Shop iOS') ? 'Shop Android' : 'Shop iOS';
  await switcher.click();
  await other.getByRole('menuitem', { name: new RegExp(target) }).click();
  await expect(switcher).toContainText(target);

  // Spanish.
  await other.getByTestId('language-menu').click();
  await other.getByRole('menuitem', { name: /Español/ }).click();
  await expect(other).toHaveURL(/\/es\//);
  await expect(other.getByRole('navigation').getByRole('link', { name: 'Dispositivos de prueba' })).toBeVisible();
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Dispositivos de prueba');

  await analystContext.close();
  await ownerContext.close();
});

test('a wrong password is refused, and throttling engages after repeated failures', async ({ page }) => {
  // The provider demo user: no other test signs in with it, and it stays locked for the window.
  await page.goto('/login');
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('E-mail').fill('provider@demo.growthdeck.test');
    await page.getByLabel('Password', { exact: true }).fill(`Wrong-pass-${i}!`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('form-error')).toContainText('Wrong e-mail or password');
  }
  await page.getByLabel('Password', { exact: true }).fill('Demo-pass-2026!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('form-error')).toContainText('Too many failed sign-in attempts');
});

test('a signed-in person opening the sign-in or register page goes home, in their language', async ({ browser }) => {
  const { page, context } = await signIn(browser, MANAGER.email);
  for (const [path, home] of [['/login', /^\/(?!login|register)/], ['/register', /^\/(?!login|register)/], ['/es/login', /^\/es(\/|$)(?!login)/]] as const) {
    await page.goto(path);
    await expect.poll(() => new URL(page.url()).pathname).toMatch(home);
    await expect(page.getByRole('button', { name: /sign in|iniciar sesión/i })).toHaveCount(0);
  }
  await context.close();
});
