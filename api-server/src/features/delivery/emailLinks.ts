/**
 * The public addresses an e-mail's links point at (no session, no CSRF: the recipient's mail
 * client calls them), each naming its outbox row by a signed token (tracking.ts):
 * - GET  /api/email/open/<token>.gif: the open pixel; records an `open` interaction.
 * - GET  /api/email/click/<token>?u=<url>&s=<signature>: records a `click` and redirects to the
 *   link, only to the very link the e-mail carried (its signature), so it is no open redirect.
 * - GET  /api/email/unsubscribe/<token>: a page (in the language the person got the e-mail in:
 *   recipientTexts.ts) asking to confirm (link scanners fetch GETs: a GET
 *   never unsubscribes anyone); POST (the page's button, or a mail provider's RFC 8058 one-click
 *   `List-Unsubscribe=One-Click`) adds the address to the app's suppressions: no more e-mail.
 * Test sends record nothing. A token that is not ours answers 404 (a pixel answers its GIF anyway,
 * so a mail client shows nothing broken).
 */
import express, { type Router } from 'express';
import type { Deps } from '../../http/context.ts';
import { recordInteractionTriggers } from '../ingest/triggers.ts';
import { languageFromBrowser } from '@gd/shared/language';
import { recipientTexts, type RecipientTexts } from './recipientTexts.ts';
import { linkSignedBy, rowOfToken } from './tracking.ts';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

interface TrackedRow { id: string; app_id: string; message_id: string; person_id: string; address: string; language: string; test: boolean; variant_id: string; campaign_id: string; journey_id: string | null; step_id: string | null }

async function rowOf(deps: Deps, token: string): Promise<TrackedRow | undefined> {
  const id = rowOfToken(deps.secret, token);
  if (!id) return undefined;
  const { rows } = await deps.db.query<TrackedRow>(
    `SELECT o.id::text, o.app_id, o.message_id, o.person_id::text, o.address, o.language, o.test, o.variant_id, m.campaign_id, o.journey_id::text, o.step_id
       FROM message_outbox o JOIN messages m ON m.id = o.message_id WHERE o.id = $1 AND o.channel = 'email'`, [id]);
  return rows[0];
}

async function recordInteraction(deps: Deps, row: TrackedRow, kind: 'open' | 'click'): Promise<void> {
  if (row.test) return;
  await deps.db.query(
    `INSERT INTO message_interactions (app_id, event_time, client_id, person_id, device_id, channel, kind, campaign_id, message_id, variant_id, journey_id, step_id)
     VALUES ($1, now(), $2, $3, 0, 'email', $4, $5, $6, $7, $8, $9)`,
    [row.app_id, `email:${row.id}:${kind}:${Date.now()}`, row.person_id, kind, row.campaign_id, row.message_id, row.variant_id, row.journey_id, row.step_id]);
  // A journey waiting for this interaction hears of it (ingest/triggers.ts).
  await recordInteractionTriggers(deps.db, row.app_id, row.person_id, [{ kind, at: new Date(), clientId: `email:${row.id}:${kind}`, messageId: row.message_id, journeyId: row.journey_id, stepId: row.step_id }]);
}

const page = (texts: RecipientTexts, title: string, body: string) => `<!doctype html><html lang="${texts.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2937}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1c7ed6;background:#1c7ed6;color:#fff;cursor:pointer}</style></head>
<body><h1 style="font-size:1.4rem">${title}</h1>${body}</body></html>`;

/** A link that names no row of ours: in the browser's language, as nothing else tells the person's. */
function invalidPage(req: express.Request): string {
  const texts = recipientTexts(languageFromBrowser(req.acceptsLanguages()));
  return page(texts, texts.invalidTitle, `<p>${texts.invalidBody}</p>`);
}

export function emailLinksRouter(deps: Deps): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.get('/open/:token.gif', async (req, res, next) => {
    try {
      const row = await rowOf(deps, req.params.token);
      if (row) await recordInteraction(deps, row, 'open');
      res.type('image/gif').send(GIF);
    } catch (error) {
      next(error);
    }
  });

  router.get('/click/:token', async (req, res, next) => {
    try {
      const row = await rowOf(deps, req.params.token);
      const url = typeof req.query.u === 'string' ? req.query.u : '';
      const signature = typeof req.query.s === 'string' ? req.query.s : '';
      if (!row || !/^https?:\/\//i.test(url) || !linkSignedBy(deps.secret, row.id, url, signature)) return void res.status(404).type('text/plain').send('Unknown link');
      await recordInteraction(deps, row, 'click');
      res.redirect(302, url);
    } catch (error) {
      next(error);
    }
  });

  router.get('/unsubscribe/:token', async (req, res, next) => {
    try {
      const row = await rowOf(deps, req.params.token);
      if (!row) return void res.status(404).type('html').send(invalidPage(req));
      const texts = recipientTexts(row.language);
      res.type('html').send(page(texts, texts.confirmTitle, `<p>${texts.confirmQuestion(row.address.replace(/[<>&"]/g, ''))}</p><form method="post"><button type="submit">${texts.confirmButton}</button></form>`));
    } catch (error) {
      next(error);
    }
  });

  router.post('/unsubscribe/:token', express.urlencoded({ extended: false, limit: '1kb' }), async (req, res, next) => {
    try {
      const row = await rowOf(deps, req.params.token);
      if (!row) return void res.status(404).type('html').send(invalidPage(req));
      if (!row.test) {
        await deps.db.query(`INSERT INTO email_suppressions (app_id, email, reason) VALUES ($1, $2, 'unsubscribed') ON CONFLICT (app_id, email) DO UPDATE SET reason = 'unsubscribed', at = now()`, [row.app_id, row.address]);
      }
      const texts = recipientTexts(row.language);
      res.type('html').send(page(texts, texts.doneTitle, `<p>${texts.doneBody}</p>`));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
