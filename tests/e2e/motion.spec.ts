/**
 * Someone who asked their system for less motion gets none (client/src/app/theme.ts,
 * respectReducedMotion): the app menu drops down without its transition for them, and with it for
 * everyone else; the browser's setting is read as it changes, without a reload.
 */
import { expect, test } from '@playwright/test';
import { AFTER_LOAD, signIn } from '../support/people.ts';

test('menus open without motion for people who asked for less, and with it for the others', async ({ browser }) => {
  const { page, context } = await signIn(browser, 'client@demo.growthdeck.test');
  await page.goto('/manage/mail-providers');
  await expect(page.getByRole('heading', { name: 'Mail providers' })).toBeVisible(AFTER_LOAD);
  const switcher = page.getByRole('banner').getByTestId('app-switcher');
  const menu = page.getByRole('menu');
  const openedWith = async (reducedMotion: 'reduce' | 'no-preference') => {
    await page.emulateMedia({ reducedMotion });
    await switcher.click();
    await expect(menu).toBeVisible();
    // Mantine's transition writes its duration on the element it moves, the menu itself; with no
    // time to take it renders the menu without any transition style.
    const duration = await menu.evaluate((el) => el.style.transitionDuration);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    return duration;
  };
  expect(await openedWith('no-preference')).toMatch(/^[1-9]\d*ms$/);
  expect(await openedWith('reduce')).toBe('');
  expect(await openedWith('no-preference')).toMatch(/^[1-9]\d*ms$/);
  await context.close();
});
