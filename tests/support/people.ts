/**
 * The demo people the end-to-end tests act as, and signing one in: each in a browser context of
 * their own (own cookies, own session and IndexedDB), with the app's test hooks on
 * (`localStorage['gd.testHooks']` = '1' exposes the open documents as `window.__gdSync`).
 *
 * `signIn` signs in through the API (as the login page does: a CSRF token, then POST /auth/login),
 * so a context starts with its own session without loading the login page and the home screen
 * first; its page is blank until the test opens a screen. The login page itself is driven by
 * `signInThroughUi`, which home.spec.ts uses (the demo owner signs in and lands on the home).
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

async function newPersonContext(browser: Browser, options: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript(() => window.localStorage.setItem('gd.testHooks', '1'));
  return context;
}

/** Signs `email` in within `context` through the API (a session of its own; the cookies are the context's). */
export async function signInContext(context: BrowserContext, email: string, password = DEMO_PASSWORD): Promise<void> {
  const { csrfToken } = (await (await context.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await context.request.post('/api/auth/login', { headers: { 'x-csrf-token': csrfToken }, data: { email, password } });
  expect(await res.json(), `sign-in of ${email}`).toMatchObject({ status: 'OK' });
}

/** Signs `email` in, in a new browser context, through the API; the page is blank. */
export async function signIn(browser: Browser, email: string, options: BrowserContextOptions = {}): Promise<Person> {
  const context = await newPersonContext(browser, options);
  await signInContext(context, email);
  return { context, page: await context.newPage() };
}

/** Signs `email` in through the login page; `signedInWithin` is how long the app may take to leave it. */
export async function signInThroughUi(browser: Browser, email: string, options: BrowserContextOptions = {}, signedInWithin: { timeout?: number } = AFTER_LOAD): Promise<Person> {
  const context = await newPersonContext(browser, options);
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/, signedInWithin);
  return { context, page };
}
