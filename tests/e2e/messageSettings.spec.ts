/**
 * Message settings as an account's owner uses them: a communication parameter created through
 * /manage/communication-parameters (a duplicate name is refused on the field), and a native ad
 * template through /manage/native-templates, which becomes the app's default (its delete stays
 * disabled), with the platform's templates listed below the app's. The native ads screen lists
 * that template as the default and writes a native ad, whose editor offers the new parameter with
 * its values.
 */
import { expect, test, type Page } from '@playwright/test';
import { AFTER_LOAD, signIn } from '../support/people.ts';

const suffix = Date.now().toString(36);

async function createParameter(page: Page, name: string) {
  await page.getByRole('button', { name: 'New parameter' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create a communication parameter' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Label').fill('Loyalty tier');
  const values = dialog.getByRole('combobox', { name: 'Values' });
  for (const value of ['gold', 'silver']) {
    await values.fill(value);
    await values.press('Enter');
  }
  await dialog.getByTestId('parameter-save').click();
  return dialog;
}

test('create a communication parameter and a native ad template through the screens', async ({ browser }) => {
  test.slow();
  const { page, context } = await signIn(browser, 'client@demo.growthdeck.test');

  await page.goto('/manage/communication-parameters');
  await expect(page.getByRole('heading', { name: 'Communication parameters' })).toBeVisible(AFTER_LOAD);
  const name = `tier_${suffix}`;
  await expect(await createParameter(page, name)).toBeHidden();
  const row = page.getByTestId('parameter-row').filter({ hasText: `{{communicationParameter__${name}}}` });
  await expect(row).toBeVisible();
  await expect(row.getByText('Choice of values')).toBeVisible();
  await expect(row.getByText('silver')).toBeVisible();

  // The same name again: refused on the name field, nothing added.
  const again = await createParameter(page, name);
  await expect(again.getByText('This app already has a parameter with that name.')).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('parameter-row').filter({ hasText: `{{communicationParameter__${name}}}` })).toHaveCount(1);

  await page.goto('/manage/native-templates');
  await expect(page.getByRole('heading', { name: 'Native templates', exact: true })).toBeVisible(AFTER_LOAD);
  // The platform's templates, seeded by the migration, are listed for every app.
  await expect(page.getByRole('table', { name: 'Platform templates' }).getByText('Standard')).toBeVisible();
  await page.getByRole('button', { name: 'New template' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create a native ad template' });
  const template = `Product card ${suffix}`;
  await dialog.getByLabel('Name', { exact: true }).fill(template);
  const first = dialog.getByTestId('template-field').nth(0);
  await first.getByLabel('Label').fill('Title');
  await first.getByLabel('Max length').fill('40');
  await dialog.getByRole('button', { name: 'Add field' }).click();
  const second = dialog.getByTestId('template-field').nth(1);
  await second.getByLabel('Key').fill('picture');
  await second.getByLabel('Label').fill('Picture');
  await second.getByLabel('Kind').click();
  await page.getByRole('option', { name: 'Image' }).click();
  await expect(second.getByLabel('Max length')).toBeDisabled();
  await dialog.getByTestId('template-save').click();
  await expect(dialog).toBeHidden();

  const own = page.getByRole('table', { name: 'Native templates', exact: true }).getByTestId('template-row').filter({ hasText: template });
  await expect(own).toBeVisible();
  // The app's first template is its default: it cannot be deleted.
  await expect(own.getByText('Default')).toBeVisible();
  await expect(own.getByRole('button', { name: 'Delete' })).toHaveAttribute('aria-disabled', 'true');
  await expect(own.getByText('picture')).toBeVisible();

  // The native ads screen: the new template is the app's default; "New" writes a native ad.
  await page.goto('/communication/messaging/native_ad');
  await expect(page.getByRole('heading', { name: 'Native ads', exact: true })).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('native-template-chip').filter({ hasText: template })).toContainText('default');
  await expect(page.getByTestId('type-filter')).toHaveCount(0);
  await page.getByTestId('new-message').first().click();
  const create = page.getByRole('dialog');
  await expect(create.getByTestId('new-message-type')).toHaveValue('Native ad');
  await create.getByRole('textbox', { name: 'Name', exact: true }).fill(`Card ad ${suffix}`);
  await create.getByTestId('create-message').click();
  await expect(page).toHaveURL(/\/communication\/messaging\?id=[0-9a-f-]{36}/);
  await expect(page.getByTestId('message-type')).toHaveText('Native ad', AFTER_LOAD);

  // The app's parameter, with its values to choose from.
  await page.getByTestId('parameter-picker').click();
  await page.getByRole('option', { name: `Loyalty tier (${name})` }).click();
  await page.getByRole('combobox', { name: 'Value', exact: true }).click();
  await page.getByRole('option', { name: 'gold', exact: true }).click();
  await page.getByRole('button', { name: 'Add parameter' }).click();
  const added = page.locator(`[data-testid="message-parameter"][data-name="communicationParameter__${name}"]`);
  await expect(added).toBeVisible();
  await expect(added.getByRole('combobox', { name: 'Value' })).toHaveValue('gold');
  await context.close();
});
