/**
 * Message helpers for the end-to-end tests (the people and signing in: people.ts; offline and the
 * sync badge: journeys.ts): the account owner who sets the approval policy, creating a message from
 * the list, its content fields, the lifecycle buttons and the review screen.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';

export { ADMIN, AFTER_LOAD, ANALYST, MANAGER, signIn, type Person } from './people.ts';
export { syncStatus } from './journeys.ts';
/** The demo account's owner (role Client): may change the account's approval policy and approve. */
export const CLIENT = { email: 'client@demo.growthdeck.test', name: 'Carmen Client' };
export const suffix = Date.now().toString(36);
/** Opening a message screen: a full page load, the editor's chunk, a token and the document, on a shared, busy machine. */
export const OPEN = { timeout: 60_000 };

/** A state-changing API call as the signed-in person of `context` (CSRF token from its cookie). */
export async function apiCall(context: BrowserContext, page: Page, method: 'POST' | 'PUT', path: string, data?: unknown) {
  const csrf = (await context.cookies()).find((c) => c.name === 'gd_csrf')?.value ?? '';
  const response = await page.request.fetch(`/api${path}`, { method, headers: { 'x-csrf-token': csrf }, data });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

/** Sets the account's approval policy (as a person who may edit the account). */
export async function setApprovalPolicy(context: BrowserContext, page: Page, policy: { required: number; authorsMayApprove: boolean }) {
  const { body } = await apiCall(context, page, 'PUT', '/account/approval-policy', policy);
  expect(body).toMatchObject({ status: 'OK' });
}

/** Creates a push message in a new campaign from the list; returns the message screen's address. */
export async function createMessage(page: Page, name: string): Promise<string> {
  await page.goto('/communication/messaging');
  await page.getByTestId('new-message').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByTestId('create-message').click();
  await expect(page).toHaveURL(/[?&]id=[0-9a-f-]{36}/);
  await expect(page.getByTestId('message-form')).toBeVisible(OPEN);
  await expect(page.getByTestId('message-title')).toHaveText(name);
  return page.url();
}

export async function openMessage(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByTestId('message-form')).toBeVisible(OPEN);
}

/** The message's id in its address. */
export const messageIdOf = (url: string) => new URL(url).searchParams.get('id') ?? '';

/** A content field (`title`, `message`...) of the only variant in `lang`, switching to that language's tab. */
export async function contentField(page: Page, lang: string, field: string) {
  await page.getByTestId('language-tabs').locator(`[role="tab"][data-language="${lang}"]`).click();
  return page.locator(`[data-testid="content-fields"][data-language="${lang}"] [data-field="${field}"]`);
}

/** Sends the message to the app's test devices (the target every submit needs). */
export async function targetTestDevices(page: Page) {
  await page.getByTestId('target-kind').click();
  await page.getByRole('option', { name: 'Test devices', exact: true }).click();
}

export const status = (page: Page) => page.getByTestId('message-header').getByTestId('message-status');

/**
 * Clicks a lifecycle button of the message header (`play`, `submit`...) once no notice covers it.
 * Notices ("Submitted for approval") show top right, over the header's buttons, for 3.5 s, and stay
 * while the pointer is on them: a click's pointer, waiting for the button under a notice, would keep
 * it there for good. So the pointer first leaves them, and the click waits for them to go.
 */
export async function clickAction(page: Page, action: string) {
  await page.mouse.move(0, 0);
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
  await page.getByTestId(`message-action-${action}`).click();
}

/** Opens the open submission's review from the message screen (the link shows once the summary says so). */
export async function openReview(page: Page) {
  await page.getByTestId('open-review').click(OPEN);
  await expect(page.getByTestId('review-screen')).toBeVisible(OPEN);
}

/** The review screen's comment pin of a field path. */
export const pin = (page: Page, path: string) => page.getByTestId('review-form').locator(`[data-testid="comment-pin"][data-path="${path}"]`);

/** Comments on a field from the review screen: opens its pin, writes, posts, closes. */
export async function commentOn(page: Page, path: string, body: string) {
  await pin(page, path).click();
  const popover = page.getByTestId('comment-popover');
  await popover.getByTestId('comment-body').fill(body);
  await popover.getByTestId('post-comment').click();
  await expect(popover.getByTestId('comment').filter({ hasText: body })).toBeVisible();
  await page.keyboard.press('Escape');
}

export const reviewer = (page: Page, name: string) => page.getByTestId('reviewers').locator(`[data-testid="presence-avatar"][data-name="${name}"]`);
