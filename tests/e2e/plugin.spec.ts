/**
 * The web plugin (/communication/messaging/plugin): the owner turns it on for a website, with the
 * screen refusing to turn it on for none and refusing what is not a domain, in the person's
 * language; the settings survive a reload and the preview follows them; the snippet carries the
 * app's key; an analyst sees the settings read-only.
 */
import { expect, test } from '@playwright/test';
import { AFTER_LOAD, ANALYST, signIn } from '../support/people.ts';

const OWNER = 'client@demo.growthdeck.test';

test('the owner turns the web plugin on for a website; an analyst sees it read-only', async ({ browser }) => {
  const { page, context } = await signIn(browser, OWNER);
  await page.goto('/communication/messaging/plugin');
  const screen = page.getByTestId('web-plugin');
  await expect(screen).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('plugin-snippet')).toContainText('Growthdeck.createTracker({ appKey: ');

  // Start from a known state: off, no websites.
  const websites = page.getByRole('combobox', { name: 'Websites' });
  const enabled = page.getByRole('switch', { name: 'Show in-app messages on the websites below' });
  while (await screen.locator('.mantine-Pill-remove').count()) await screen.locator('.mantine-Pill-remove').first().click();
  await enabled.check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(screen.getByText('List at least one website to turn the plugin on.')).toBeVisible();

  await websites.fill('https://shop.example.com/path');
  await websites.press('Enter');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(screen.getByText('Enter domains such as shop.example.com or *.example.com (no https://, no path).')).toBeVisible();
  await screen.locator('.mantine-Pill-remove').first().click();
  await websites.fill('shop.example.com');
  await websites.press('Enter');
  await screen.locator('.mantine-SegmentedControl-label', { hasText: /^Top$/ }).click();
  await expect(page.getByTestId('plugin-preview')).toHaveAttribute('data-position', 'top');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('plugin-status')).toHaveText('On');

  await page.reload();
  await expect(page.getByTestId('plugin-status')).toHaveText('On', AFTER_LOAD);
  await expect(screen.getByText('shop.example.com', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('plugin-preview')).toHaveAttribute('data-position', 'top');

  const analyst = await signIn(browser, ANALYST.email);
  await analyst.page.goto('/communication/messaging/plugin');
  await expect(analyst.page.getByText('You can see these settings; changing them needs the right to edit the app.')).toBeVisible(AFTER_LOAD);
  await expect(analyst.page.getByRole('switch', { name: 'Show in-app messages on the websites below' })).toBeDisabled();
  await expect(analyst.page.getByTestId('plugin-status')).toHaveText('On');
  await analyst.context.close();
  await context.close();
});
