/**
 * Categories as the demo owner uses them: a category made on /manage/categories (its colour and
 * the entity types it applies to), given to an apptracker campaign in the campaign dialog and to
 * the current app in its settings, and the apptracker and apps lists filtered by it (only the
 * items with it stay). The campaigns are made through the API: the clicking tested is the
 * category's.
 */
import { expect, test, type Page } from '@playwright/test';
import { call } from '../support/api.ts';
import { AFTER_LOAD, signIn } from '../support/people.ts';

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

test('create a category, give it to a campaign and the app, and filter the lists by it', async ({ browser }) => {
  const { page, context } = await signIn(browser, 'client@demo.growthdeck.test');
  const suffix = Date.now().toString(36);
  const category = `E2E category ${suffix}`;
  await page.goto('/manage/categories');
  await expect(page.getByRole('heading', { name: 'Categories', exact: true })).toBeVisible(AFTER_LOAD);

  await page.getByTestId('category-add').click();
  const dialog = page.getByRole('dialog', { name: 'Create a category' });
  await dialog.getByTestId('category-name').fill(category);
  await dialog.getByTestId('category-colour').fill('#aa3355');
  // A colour that is not #RRGGBB is refused on its field.
  await dialog.getByTestId('category-colour').fill('#aa33');
  await dialog.getByTestId('category-submit').click();
  await expect(dialog).toContainText('Use # followed by 6 hex digits');
  await dialog.getByTestId('category-colour').fill('#aa3355');
  // Leaving the field closes its colour picker.
  await dialog.getByTestId('category-name').click();
  await dialog.getByTestId('category-type-message').uncheck();
  await dialog.getByTestId('category-submit').click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('category-row').filter({ hasText: category });
  await expect(row).toContainText('#AA3355');
  await expect(row).toContainText('Apps');
  await expect(row).toContainText('Campaigns');
  await expect(row).not.toContainText('Messages');
  await expect(row).toContainText('Not used yet');

  // Two campaigns of the current app, one of them to be given the category.
  const appId = await page.evaluate(() => sessionStorage.getItem('gd.appId'));
  expect(appId).toBeTruthy();
  const { source } = await call(page.request, 'POST', `/apps/${appId}/acquisition/sources`, { name: `E2E cat source ${suffix}`, type: 'custom' }) as { source: { id: string } };
  for (const name of [`E2E tagged ${suffix}`, `E2E plain ${suffix}`]) {
    await call(page.request, 'POST', `/apps/${appId}/acquisition/campaigns`, { name, sourceId: source.id, pricingModel: 'cpi', destinations: { desktop: { web: 'https://www.example.com/get' } } });
  }

  // In-app navigation from here on (the side navigation): no page loads.
  const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await nav('App tracker');
  const tagged = page.getByTestId('campaign-row').filter({ hasText: `E2E tagged ${suffix}` });
  const plain = page.getByTestId('campaign-row').filter({ hasText: `E2E plain ${suffix}` });
  await expect(tagged).toBeVisible(AFTER_LOAD);
  await tagged.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit campaign' });
  await pick(page, 'campaign-categories', category);
  await edit.getByTestId('campaign-submit').click();
  await expect(edit).toBeHidden();
  await expect(tagged.getByTestId('category-badges')).toContainText(category);
  await expect(plain.getByTestId('category-badges')).toHaveCount(0);

  await pick(page, 'category-filter-campaign', category);
  await expect(tagged).toBeVisible();
  await expect(plain).toHaveCount(0);
  await expect(page.getByTestId('campaign-row')).toHaveCount(1);

  // The app's settings: the category saved as it is chosen; the apps list then filters by it.
  await nav('App settings');
  const appCategories = page.getByTestId('app-categories');
  await expect(appCategories).toBeVisible(AFTER_LOAD);
  await page.getByTestId('category-picker-app').click();
  await page.getByRole('option', { name: category }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Categories saved.')).toBeVisible();

  await nav('Apps');
  await expect(page.getByTestId('app-row').first()).toBeVisible(AFTER_LOAD);
  await pick(page, 'category-filter-app', category);
  await expect(page.getByTestId('app-row')).toHaveCount(1);
  await expect(page.getByTestId('app-row')).toContainText(category);
  await expect(page).toHaveURL(/[?&]category=/);

  await nav('Categories');
  await expect(row).toContainText('1 app · 1 campaign · 0 messages', AFTER_LOAD);
  await context.close();
});

test('a new message is given its categories in the new-message dialog', async ({ browser }) => {
  const { page, context } = await signIn(browser, 'client@demo.growthdeck.test');
  const suffix = Date.now().toString(36);
  const category = `E2E message category ${suffix}`;
  await call(page.request, 'POST', '/categories', { name: category, colour: '#2255aa', entityTypes: ['message'] });
  await page.goto('/communication/messaging');
  await page.getByTestId('new-message').first().click(AFTER_LOAD);
  const dialog = page.getByRole('dialog', { name: 'New message' });
  await dialog.getByLabel('Name').first().fill(`E2E categorised ${suffix}`);
  await pick(page, 'new-message-categories', category);
  // Closes the picker's list (Escape would close the dialog).
  await dialog.getByRole('heading', { name: 'New message' }).click();
  await dialog.getByTestId('create-message').click();
  await expect(page).toHaveURL(/\/communication\/messaging\/?\?/, AFTER_LOAD);
  // The message's picker shows the category as a chosen pill.
  await expect(page.getByTestId('message-category-picker')).toBeVisible(AFTER_LOAD);
  await expect(page.getByText(category, { exact: true })).toBeVisible();
  await context.close();
});
