/**
 * A/B analysis end to end (issue 13): the account's owner writes an A/B test (two push variants)
 * to the app's test devices, sending it first to half the audience (the editor's test portion),
 * submits, approves and plays it; /communication/report/ab-analysis then shows the test with both
 * variants, their rates and intervals, the verdict, and "Send winner to the rest" disabled with
 * the reason while no winner is declared. The performance histograms screen opens on the range.
 */
import { expect, test, type Page } from '@playwright/test';
import { AFTER_LOAD, CLIENT, OPEN, apiCall, clickAction, contentField, setApprovalPolicy, signIn, status, suffix, targetTestDevices } from '../support/messages.ts';

const appIdOf = (page: Page) => page.evaluate(() => (window as unknown as { __gdSync: { names(): string[] } }).__gdSync.names()[0]?.split('/')[1] ?? '');

test('an A/B test\'s analysis shows both variants', async ({ browser }) => {
  test.slow();
  const { page, context } = await signIn(browser, CLIENT.email);
  await setApprovalPolicy(context, page, { required: 1, authorsMayApprove: true });

  const name = `Spring A/B ${suffix}`;
  await page.goto('/communication/messaging');
  await page.getByTestId('new-message').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByTestId('new-message-type').click();
  await page.getByRole('option', { name: 'A/B test', exact: true }).click();
  await dialog.getByTestId('create-message').click();
  await expect(page.getByTestId('message-form')).toBeVisible(OPEN);
  const appId = await appIdOf(page);
  const messageId = new URL(page.url()).searchParams.get('id') ?? '';

  // Both variants' push content in both languages, half the audience first, to the test devices.
  const tabs = page.getByTestId('variant-tabs');
  for (const variant of ['A', 'B']) {
    // The tab's name is its label and its share ("Variant A50%").
    await tabs.getByRole('tab', { name: new RegExp(`^Variant ${variant}\\d`) }).click();
    for (const lang of ['en', 'es']) {
      await (await contentField(page, lang, 'title')).fill(`Spring ${variant} ${lang}`);
      await (await contentField(page, lang, 'message')).fill(`The spring sale, version ${variant}`);
    }
  }
  const portion = page.getByTestId('ab-test-percent');
  await portion.fill('50');
  await portion.blur();
  await targetTestDevices(page);
  await page.getByTestId('message-action-submit').click();
  await expect(status(page)).toHaveAttribute('data-status', 'To validate', AFTER_LOAD);
  const { message } = (await (await page.request.get(`/api/apps/${appId}/messages/${messageId}`)).json()) as { message: { submission: { id: string } } };
  expect((await apiCall(context, page, 'POST', `/apps/${appId}/messages/${messageId}/approve`, { submissionId: message.submission.id })).status).toBe(200);
  await expect(status(page)).toHaveAttribute('data-status', 'Approved', AFTER_LOAD);
  await clickAction(page, 'play');
  await page.getByRole('dialog').getByRole('button', { name: 'Play', exact: true }).click();
  await expect(status(page)).toHaveAttribute('data-status', /Processing|Ready|Sending|Finished/, AFTER_LOAD);

  await page.goto(`/communication/report/ab-analysis?message=${messageId}&metric=click`);
  const rows = page.getByTestId('ab-variant');
  await expect(rows).toHaveCount(2, OPEN);
  await expect(rows.nth(0)).toHaveAttribute('data-variant', 'A');
  await expect(rows.nth(1)).toHaveAttribute('data-variant', 'B');
  await expect(page.getByTestId('ab-test-select')).toHaveValue(name);
  await expect(page.getByTestId('ab-rate-chart')).toBeVisible();
  await expect(page.getByText('Sent first to 50% of the audience')).toBeVisible();
  // Nobody opened or clicked: no winner, and the send is disabled with the reason shown.
  await expect(page.getByTestId('ab-verdict')).not.toHaveAttribute('data-reason', 'significant');
  await expect(page.getByTestId('send-winner')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('send-winner-reason')).not.toBeEmpty();

  await page.goto('/communication/performance-histograms');
  await expect(page.getByRole('heading', { name: 'Performance histograms' })).toBeVisible(OPEN);
  await expect(page.getByTestId('histogram-totals')).toBeVisible(OPEN);
  await context.close();
});
