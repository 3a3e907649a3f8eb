/**
 * Messages end to end: the author and a second editor write a message together (the second one
 * offline for part of it, their edits merge), the author submits it, two approvers review that
 * frozen version at the same time (they see each other, comment on a field and in general), the
 * author edits (both approvers see the submission go stale, with the diff, and cannot approve),
 * resubmits, both approve (the account's policy asks for two), and the author plays it. A reader
 * opens it and can change nothing. Helpers: ../support/messages.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN, AFTER_LOAD, ANALYST, CLIENT, MANAGER, apiCall, clickAction, commentOn, contentField, createMessage, messageIdOf, openMessage, openReview, pin, reviewer,
  OPEN, setApprovalPolicy, signIn, status, suffix, syncStatus, targetTestDevices,
} from '../support/messages.ts';

const TITLE = 'variants.main.content.en.title';

test('a message written together, reviewed by two approvers in parallel, made stale by an edit, resubmitted, approved and played; a reader changes nothing', async ({ browser }) => {
  // Four people with full sign-ins, page loads and the summary's polling: room for a busy machine.
  test.setTimeout(480_000);

  // The account's owner asks for two approvals (authors may not approve their own).
  const carmen = await signIn(browser, CLIENT.email);
  await setApprovalPolicy(carmen.context, carmen.page, { required: 2, authorsMayApprove: false });

  // Marta writes a message; Adrián opens it: each sees the other.
  const marta = await signIn(browser, MANAGER.email);
  const name = `Spring sale ${suffix}`;
  const url = await createMessage(marta.page, name);
  const messageId = messageIdOf(url);
  await expect(status(marta.page)).toHaveAttribute('data-status', 'Draft');
  const adrian = await signIn(browser, ADMIN.email);
  await openMessage(adrian.page, url);
  await expect(marta.page.getByTestId('presence-avatar').and(marta.page.locator(`[data-name="${ADMIN.name}"]`))).toBeVisible();
  await expect(adrian.page.getByTestId('presence-avatar').and(adrian.page.locator(`[data-name="${MANAGER.name}"]`))).toBeVisible();

  // Live: Marta's title appears for Adrián.
  await (await contentField(marta.page, 'en', 'title')).fill('Spring sale');
  await expect(await contentField(adrian.page, 'en', 'title')).toHaveValue('Spring sale');

  // No target yet: the what-if asks for one.
  await expect(marta.page.getByTestId('whatif-empty')).toBeVisible();

  // Adrián goes offline and writes the English text; Marta meanwhile picks the target.
  await adrian.context.setOffline(true);
  await expect(syncStatus(adrian.page)).toHaveAttribute('data-status', 'offline');
  await (await contentField(adrian.page, 'en', 'message')).fill('Up to 50% off this week');
  await expect(syncStatus(adrian.page)).toContainText('not yet saved');
  await targetTestDevices(marta.page);
  await expect(await contentField(marta.page, 'en', 'message')).toHaveValue('');
  // Back online: both hold both edits.
  await adrian.context.setOffline(false);
  await expect(syncStatus(adrian.page)).toHaveAttribute('data-status', 'online', { timeout: 20_000 });
  await expect(syncStatus(adrian.page)).toHaveAttribute('data-unsynced', '0');
  await expect(await contentField(marta.page, 'en', 'message')).toHaveValue('Up to 50% off this week');
  await expect(adrian.page.getByTestId('target-kind')).toHaveValue('Test devices');
  // The what-if follows the target on both screens, with the API's figure for that target.
  const expected = await apiCall(marta.context, marta.page, 'POST', `/apps/${await appIdOf(marta.page)}/messages/what-if`, { target: { kind: 'testDevices' }, type: 'push', schedule: { kind: 'now' } });
  expect(expected.status).toBe(200);
  for (const page of [marta.page, adrian.page]) {
    await expect(page.getByTestId('whatif-empty')).toHaveCount(0);
    await expect(page.getByTestId('whatif')).toHaveAttribute('data-total', String((expected.body as { total: number }).total), AFTER_LOAD);
  }

  // The Spanish text completes it; Marta submits.
  await (await contentField(marta.page, 'es', 'message')).fill('Hasta un 50% de descuento esta semana');
  await expect(syncStatus(marta.page)).toHaveAttribute('data-unsynced', '0');
  await expect(marta.page.getByTestId('message-problems')).toHaveAttribute('data-count', '0');
  await marta.page.getByTestId('message-action-submit').click();
  await expect(status(marta.page)).toHaveAttribute('data-status', 'To validate', AFTER_LOAD);
  await expect(marta.page.getByTestId('submission-state')).toHaveText('Waiting for approvals: 0 of 2');

  // Two approvers open the review at the same time and see each other there.
  await openReview(adrian.page);
  // Carmen follows a link to the review (as from a notification), Adrián the message screen's.
  await carmen.page.goto(adrian.page.url());
  await expect(carmen.page.getByTestId('review-screen')).toBeVisible(OPEN);
  await expect(reviewer(adrian.page, CLIENT.name)).toBeVisible();
  await expect(reviewer(carmen.page, ADMIN.name)).toBeVisible();
  // The frozen version, read-only.
  await expect(carmen.page.getByTestId('review-form').getByTestId('message-form')).toHaveAttribute('data-read-only', 'true');

  // Adrián comments on the title; Carmen sees the pin's count. Carmen comments in general; Adrián sees it.
  await commentOn(adrian.page, TITLE, 'Shorter, please');
  await expect(pin(carmen.page, TITLE)).toHaveAttribute('data-count', '1', AFTER_LOAD);
  await pin(carmen.page, TITLE).click();
  await expect(carmen.page.getByTestId('comment-popover')).toContainText('Shorter, please');
  await carmen.page.keyboard.press('Escape');
  const general = carmen.page.getByTestId('general-comments');
  await general.getByTestId('comment-body').fill('Check the Spanish wording too');
  await general.getByTestId('post-comment').click();
  await expect(adrian.page.getByTestId('general-comments')).toContainText('Check the Spanish wording too', AFTER_LOAD);

  // Marta edits the title: the submission is stale for both approvers, with the diff, and approving is disabled.
  await (await contentField(marta.page, 'en', 'title')).fill('Spring sale: last days');
  await expect(marta.page.getByTestId('changed-since-submission')).toBeVisible();
  for (const page of [adrian.page, carmen.page]) {
    const banner = page.getByTestId('stale-banner');
    await expect(banner).toBeVisible(AFTER_LOAD);
    const change = banner.locator(`[data-testid="stale-change"][data-path="${TITLE}"]`);
    await expect(change).toContainText('Spring sale');
    await expect(change).toContainText('Spring sale: last days');
    await expect(page.getByTestId('review-form').locator(`[data-path="${TITLE}"][data-changed="true"]`)).toBeVisible();
    await expect(page.getByTestId('approve-submission')).toHaveAttribute('aria-disabled', 'true');
  }
  // The server refuses an approval of the stale submission too.
  const stale = (await carmen.page.request.get(`/api/apps/${await appIdOf(marta.page)}/messages/${messageId}`).then((r) => r.json())) as { message: { submission: { id: string } } };
  const refused = await apiCall(carmen.context, carmen.page, 'POST', `/apps/${await appIdOf(marta.page)}/messages/${messageId}/approve`, { submissionId: stale.message.submission.id });
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({ status: 'KO', details: [{ path: 'submission', message: 'changed_since_submission' }] });

  // Marta resubmits; the approvers' reviews say a newer submission replaced theirs and open it.
  await expect(syncStatus(marta.page)).toHaveAttribute('data-unsynced', '0');
  await marta.page.getByTestId('message-action-submit').click();
  await expect(marta.page.getByTestId('changed-since-submission')).toHaveCount(0);
  await expect(marta.page.getByTestId('submission-state')).toHaveText('Waiting for approvals: 0 of 2');
  for (const page of [adrian.page, carmen.page]) {
    await expect(page.getByTestId('review-closed')).toBeVisible(AFTER_LOAD);
    await page.getByTestId('review-closed').getByRole('link').click();
    await expect(page.getByTestId('review-screen')).toHaveAttribute('data-outcome', 'open');
    await expect(page.getByTestId('stale-banner')).toHaveCount(0);
    await expect(page.getByTestId('review-form').locator('[data-field="title"]').first()).toHaveValue('Spring sale: last days');
  }

  // Both approve: one of two, then the approved version.
  await adrian.page.getByTestId('approve-submission').click();
  await expect(adrian.page.getByTestId('approval-count')).toHaveAttribute('data-count', '1', AFTER_LOAD);
  await expect(adrian.page.getByTestId('approve-submission')).toHaveAttribute('aria-disabled', 'true');
  await expect(marta.page.getByTestId('submission-state')).toContainText('Waiting for approvals: 1 of 2', AFTER_LOAD);
  await expect(marta.page.getByTestId('submission-state')).toContainText(ADMIN.name);
  await carmen.page.getByTestId('approve-submission').click();
  await expect(carmen.page.getByTestId('review-screen')).toHaveAttribute('data-outcome', 'approved', AFTER_LOAD);
  await expect(carmen.page.getByTestId('approval-count')).toHaveAttribute('data-count', '2', AFTER_LOAD);
  await expect(carmen.page.getByTestId('review-header').getByTestId('message-status')).toHaveAttribute('data-status', 'Approved');

  // Marta plays it.
  await expect(status(marta.page)).toHaveAttribute('data-status', 'Approved', AFTER_LOAD);
  await clickAction(marta.page, 'play');
  await marta.page.getByRole('dialog').getByRole('button', { name: 'Play', exact: true }).click();
  // The demo's test devices have no address for a push: the run finds nobody to send to and finishes.
  await expect(status(marta.page)).toHaveAttribute('data-status', 'Finished', AFTER_LOAD);

  // The history lists what happened.
  await marta.page.getByTestId('open-history').click();
  const history = marta.page.getByTestId('history-entry');
  for (const kind of ['created', 'submitted', 'commented', 'approved', 'versioned']) await expect(history.and(marta.page.locator(`[data-kind="${kind}"]`)).first()).toBeVisible();
  await marta.page.keyboard.press('Escape');

  // A reader opens it: read-only, no action, no approval; the server refuses a change too.
  const ines = await signIn(browser, ANALYST.email);
  await openMessage(ines.page, url);
  await expect(ines.page.getByTestId('message-editor')).toHaveAttribute('data-read-only', 'true');
  await expect(ines.page.getByTestId('read-only')).toBeVisible();
  await expect(ines.page.locator('[data-testid^="message-action-"]')).toHaveCount(0);
  await expect(ines.page.getByTestId('message-more')).toHaveCount(0);
  await expect(ines.page.getByTestId('content-fields').locator('[data-field="title"]')).toHaveAttribute('readonly', '');
  const pause = await apiCall(ines.context, ines.page, 'POST', `/apps/${await appIdOf(ines.page)}/messages/${messageId}/transition`, { action: 'pause' });
  expect(pause.body).toMatchObject({ status: 'KO' });
  await expect(status(marta.page)).not.toHaveAttribute('data-status', 'Paused');

  for (const person of [carmen, marta, adrian, ines]) await person.context.close();
});

/** The current app of a page, from the open document's name (`message/<appId>/...`). */
async function appIdOf(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { __gdSync: { names(): string[] } }).__gdSync.names()[0]?.split('/')[1] ?? '');
}
