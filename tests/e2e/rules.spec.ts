/**
 * Automatic rules as the account's owner uses them: a push message made for rules (origin
 * "Automatic rule") is written, submitted and approved; then a rule is created from the rules
 * screen (the form first says what is missing), shows in the list as active with its message, and
 * is paused from its row.
 */
import { expect, test, type Page } from '@playwright/test';
import { AFTER_LOAD, CLIENT, OPEN, apiCall, contentField, setApprovalPolicy, signIn, status, suffix } from '../support/messages.ts';

const appIdOf = (page: Page) => page.evaluate(() => (window as unknown as { __gdSync: { names(): string[] } }).__gdSync.names()[0]?.split('/')[1] ?? '');

test('create an automatic rule for an approved rule message, see it listed, pause it', async ({ browser }) => {
  test.slow();
  const { page, context } = await signIn(browser, CLIENT.email);
  await setApprovalPolicy(context, page, { required: 1, authorsMayApprove: true });

  // The message the rule sends: a push of origin "Automatic rule", written, submitted, approved.
  const messageName = `Cart nudge ${suffix}`;
  await page.goto('/communication/messaging');
  await page.getByTestId('new-message').first().click();
  const created = page.getByRole('dialog');
  await created.getByRole('textbox', { name: 'Name', exact: true }).fill(messageName);
  await created.getByTestId('new-message-origin').click();
  await page.getByRole('option', { name: 'Automatic rule', exact: true }).click();
  await created.getByTestId('create-message').click();
  await expect(page.getByTestId('message-form')).toBeVisible(OPEN);
  const appId = await appIdOf(page);
  const messageId = new URL(page.url()).searchParams.get('id') ?? '';
  for (const lang of ['en', 'es']) {
    await (await contentField(page, lang, 'title')).fill('Still thinking?');
    await (await contentField(page, lang, 'message')).fill('Your cart is waiting for you.');
  }
  await page.getByTestId('message-action-submit').click();
  await expect(status(page)).toHaveAttribute('data-status', 'To validate', AFTER_LOAD);
  const { message } = (await (await page.request.get(`/api/apps/${appId}/messages/${messageId}`)).json()) as { message: { submission: { id: string } } };
  expect((await apiCall(context, page, 'POST', `/apps/${appId}/messages/${messageId}/approve`, { submissionId: message.submission.id })).status).toBe(200);
  await expect(status(page)).toHaveAttribute('data-status', 'Approved', AFTER_LOAD);

  // The rule, from the rules screen.
  await page.goto('/communication/rules');
  await expect(page.getByRole('heading', { name: 'Rules' })).toBeVisible(AFTER_LOAD);
  await page.getByTestId('new-rule').first().click();
  const dialog = page.getByRole('dialog', { name: 'New automatic rule' });
  const ruleName = `Abandoned cart ${suffix}`;
  await dialog.getByLabel('Name', { exact: true }).fill(ruleName);
  await dialog.getByTestId('rule-kind').click();
  await page.getByRole('option', { name: 'Made an event', exact: true }).click();
  // Saving with nothing else filled in: the form says what is missing, on its fields.
  await dialog.getByTestId('rule-save').click();
  await expect(dialog.getByText('Required').first()).toBeVisible();
  await dialog.getByLabel('Event name').fill('add_to_cart');
  await dialog.getByTestId('rule-message').click();
  await page.getByRole('option', { name: messageName, exact: true }).click();
  await dialog.getByTestId('rule-save').click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('rule-row').filter({ hasText: ruleName });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('rule-kind')).toHaveText('Made an event');
  await expect(row).toContainText('Event add_to_cart');
  await expect(row).toContainText(messageName);
  await expect(row.getByTestId('rule-status')).toHaveText('Active');
  await expect(row.getByTestId('rule-sends')).toHaveText('0');

  await row.getByTestId('rule-pause').click();
  await expect(row.getByTestId('rule-status')).toHaveText('Paused');
  await context.close();
});
