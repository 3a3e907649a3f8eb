/**
 * Mail providers as an account's owner uses them: add an SMTP server (a real one on loopback,
 * with a login), test its connection (connected, shown under its row), activate it, then edit it
 * without retyping the password (the field says it stays unchanged) and test again. A wrong
 * password's test says authentication failed. A second provider under the same name is refused,
 * and the name field comes back into view.
 */
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { AFTER_LOAD, signIn } from '../support/people.ts';

const USER = 'relay-e2e';
const PASSWORD = 'E2e-relay-pass-31';

test('add a mail provider, test its connection, activate and edit it', async ({ browser }) => {
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => (auth.username === USER && auth.password === PASSWORD ? callback(null, { user: USER }) : callback(new Error('Invalid username or password'))),
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  const name = `Relay ${Date.now().toString(36)}`;
  try {
    const { page, context } = await signIn(browser, 'client@demo.growthdeck.test');
    await page.goto('/manage/mail-providers');
    await expect(page.getByRole('heading', { name: 'Mail providers' })).toBeVisible(AFTER_LOAD);

    await page.getByRole('button', { name: 'New provider' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a mail provider' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Host').fill('127.0.0.1');
    await dialog.getByText('None', { exact: true }).click();
    await dialog.getByLabel('Port').fill(String(port));
    await dialog.getByLabel('Username').fill(USER);
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByLabel('Sender name').fill('Acme News');
    await dialog.getByLabel('Sender address').fill('news@acme.example.com');
    await dialog.getByTestId('provider-save').click();
    await expect(dialog).toBeHidden();

    const row = page.getByTestId('provider-row').filter({ hasText: name });
    await expect(row).toContainText(`127.0.0.1:${port}`);
    await expect(row.getByTestId('provider-status')).toHaveText('Inactive');
    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('provider-test')).toContainText('Connected and logged in');

    await row.getByRole('button', { name: 'Activate' }).click();
    await expect(row.getByTestId('provider-status')).toHaveText('Active');

    // Edit without retyping the password: it stays, and the connection still logs in.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit mail provider' });
    await expect(edit.getByLabel('Password', { exact: true })).toHaveAttribute('placeholder', 'Unchanged');
    await edit.getByLabel('Sender name').fill('Acme Offers');
    await edit.getByTestId('provider-save').click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText('Acme Offers');
    await expect(row.getByTestId('provider-status')).toHaveText('Active');
    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('provider-test')).toContainText('Connected and logged in');

    // A wrong password: the test says the server refused the login.
    await row.getByRole('button', { name: 'Edit' }).click();
    await edit.getByLabel('Password', { exact: true }).fill('not-the-password');
    await edit.getByTestId('provider-save').click();
    await expect(edit).toBeHidden();
    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('provider-test')).toContainText('Authentication failed');

    // A second provider under the same name, saved from the bottom of the dialog on a laptop's
    // screen (a 720-pixel display less the browser's bars): the server's refusal of the name
    // brings its field back into view, focused.
    await page.setViewportSize({ width: 1280, height: 620 });
    await page.getByRole('button', { name: 'New provider' }).first().click();
    const again = page.getByRole('dialog', { name: 'Add a mail provider' });
    const nameField = again.getByLabel('Name', { exact: true });
    await nameField.fill(name);
    await again.getByLabel('Host').fill('127.0.0.1');
    await again.getByLabel('Sender name').fill('Acme News');
    await again.getByLabel('Sender address').fill('news@acme.example.com');
    await again.getByTestId('provider-save').scrollIntoViewIfNeeded();
    await expect(nameField).not.toBeInViewport();
    await again.getByTestId('provider-save').click();
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(nameField).toBeFocused();
    await expect(nameField).toBeInViewport();
    await context.close();
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});
