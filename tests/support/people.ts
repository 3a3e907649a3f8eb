/**
 * The demo people the end-to-end tests act as, and signing one in: each in a browser context of
 * their own (own cookies and IndexedDB), with the app's test hooks on (`localStorage['gd.testHooks']`
 * = '1' exposes the open documents as `window.__gdSync`).
 */
import { expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './env.ts';

export const MANAGER = { email: 'manager@demo.growthdeck.test', name: 'Marta Manager' };
export const ADMIN = { email: 'admin@demo.growthdeck.test', name: 'Adrián Admin' };
export const ANALYST = { email: 'analyst@demo.growthdeck.test', name: 'Inés Analyst' };
/** A full page load (a screen's chunk, a token, the browser copy, the sync) on a busy machine. */
export const AFTER_LOAD = { timeout: 30_000 };

export interface Person {
  context: BrowserContext;
  page: Page;
}

/** Signs `email` in; `signedInWithin` is how long the app may take to leave the login page. */
export async function signIn(browser: Browser, email: string, options: BrowserContextOptions = {}, signedInWithin: { timeout?: number } = AFTER_LOAD): Promise<Person> {
  const context = await browser.newContext(options);
  await context.addInitScript(() => window.localStorage.setItem('gd.testHooks', '1'));
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/, signedInWithin);
  return { context, page };
}
