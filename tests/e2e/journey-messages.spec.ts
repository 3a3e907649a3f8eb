/**
 * A journey's message step sends one of the app's real messages (issue 12): the step picks a
 * campaign, then a journey message (origin automatic journey) of its channel with its status; the
 * problem "choose a message" goes away, the node names the message, and a message deleted since
 * shows as no longer existing. "Create a journey message" opens the new-message dialog for one.
 * Helpers: ../support/journeys.ts.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { MANAGER, AFTER_LOAD, suffix, signIn, createJourney, addStep, nodeNamed } from '../support/journeys.ts';

/** A state-changing API call as the signed-in person of `context` (CSRF token from its cookie). */
async function post(context: BrowserContext, page: Page, path: string, data: unknown): Promise<Record<string, unknown>> {
  const csrf = (await context.cookies()).find((c) => c.name === 'gd_csrf')?.value ?? '';
  const body = (await (await page.request.post(`/api${path}`, { headers: { 'x-csrf-token': csrf }, data })).json()) as Record<string, unknown>;
  expect(body.status, JSON.stringify(body)).toBe('OK');
  return body;
}

/** The current app of a page, from the open journey document's name (`journey/<appId>/...`). */
const appIdOf = (page: Page) => page.evaluate(() => (window as unknown as { __gdSync: { names(): string[] } }).__gdSync.names()[0]?.split('/')[1] ?? '');

test('a push step picks a journey push message of a campaign; the problem goes, and comes back once the message is deleted', async ({ browser }) => {
  // A sign-in, two editor loads and a reload: room for a busy shared machine.
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const { page, context } = marta;
  await createJourney(page, `Messages ${suffix}`);
  const appId = await appIdOf(page);
  const campaign = `Spring ${suffix}`;
  const created = await post(context, page, `/apps/${appId}/messages`, { name: `Welcome push ${suffix}`, type: 'push', origin: 'automaticJourney', campaignName: campaign });
  const push = created.message as { id: string; campaignId: string };
  await post(context, page, `/apps/${appId}/messages`, { name: `Welcome mail ${suffix}`, type: 'email', origin: 'automaticJourney', campaignId: push.campaignId });
  await post(context, page, `/apps/${appId}/messages`, { name: `Push by hand ${suffix}`, type: 'push', campaignId: push.campaignId });

  await addStep(page, 'Event entry', 'Push notification');
  await nodeNamed(page, 'Push notification').click();
  const inspector = page.getByTestId('step-inspector');
  await expect(nodeNamed(page, 'Push notification')).toContainText('Push · choose a message');
  await expect(inspector).toContainText('Choose the campaign of this message.');

  // The campaign, then its journey push messages only (neither the e-mail nor the push sent by hand is offered), each with its status.
  await inspector.getByTestId('campaign-picker').click();
  await page.getByRole('option', { name: campaign }).click();
  const message = inspector.getByTestId('message-picker');
  await message.click();
  const options = page.getByRole('option');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText(`Welcome push ${suffix}`);
  await expect(options.first().getByTestId('message-status')).toHaveText('Draft');
  await options.first().click();

  // Picked: no message problem on the step, the node names the message, a draft is flagged.
  await expect(message).toHaveValue(`Welcome push ${suffix}`);
  await expect(inspector.getByTestId('message-not-approved')).toBeVisible();
  await expect(inspector.getByTestId('open-message')).toHaveAttribute('href', `/communication/messaging?id=${push.id}`);
  await expect(nodeNamed(page, 'Push notification')).toContainText(`Push · Welcome push ${suffix}`);
  await expect(nodeNamed(page, 'Push notification').getByTestId('step-problems')).toHaveCount(0);
  await expect(inspector).not.toContainText('Choose the campaign of this message.');
  await expect(page.getByTestId('problems-panel')).not.toContainText('This message no longer exists');

  // Deleted meanwhile: the editor checks the app's messages again and says so on the step.
  await post(context, page, `/apps/${appId}/messages/${push.id}/transition`, { action: 'delete' });
  await page.reload();
  await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
  await nodeNamed(page, 'Push notification').click();
  await expect(page.getByTestId('step-inspector')).toContainText('This message no longer exists, or journeys do not send it. Choose a journey message.');
  await expect(page.getByTestId('problems-panel')).toContainText('This message no longer exists');
  await expect(page.getByTestId('step-inspector').getByTestId('message-picker')).toHaveValue('Message no longer available');
  await expect(nodeNamed(page, 'Push notification')).toContainText('Push · message not found');

  // "Create a journey message" opens, in a new tab, the new-message dialog set for a journey push.
  const create = page.getByTestId('step-inspector').getByTestId('create-message');
  await expect(create).toHaveAttribute('href', '/communication/messaging?new=push&origin=automaticJourney');
  const [tab] = await Promise.all([context.waitForEvent('page'), create.click()]);
  const dialog = tab.getByRole('dialog');
  await expect(dialog).toBeVisible(AFTER_LOAD);
  await expect(dialog.getByTestId('new-message-type')).toHaveValue('Push');
  await expect(dialog.getByTestId('new-message-origin')).toHaveValue('Automatic journey');

  await context.close();
});
