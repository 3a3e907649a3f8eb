/**
 * Message approval figures (issue 12), against the real server (scripts/serve.ts in a child
 * process: API and sync server) on real Postgres, with the draft written through a real
 * HocuspocusProvider over WebSockets:
 * - submit latency (the API reads the live draft from the sync server, validates it, freezes it
 *   and stores the snapshot) and approve latency (stale check against the live draft, the
 *   decision, the version copied from the snapshot) for an A/B test of 10 e-mail variants in 5
 *   languages, each content with a 200 KB HTML body (10 MB of text in all);
 * - the snapshot diff (shared diffDrafts) of such a message against the live draft with one
 *   field changed. Target: under 50 ms.
 * Each submit follows an edit of one character (a new snapshot every time); the policy is one
 * approval, given by a manager.
 */
import * as Y from 'yjs';
import {
  AUTH_COOKIES, CSRF_HEADER, applyMessageDraftToDoc, createMessageContent, diffDrafts, evenShares, messageDraftFromDoc,
  type MessageDraft,
} from '@gd/shared';
import { openClient, synced, waitFor } from '../../sync-server/src/testing/clients.ts';
import { DEMO_PASSWORD } from '../support/env.ts';
import { fmt, freshDatabase, percentile, startServerProcess } from './support.ts';

const VARIANTS = 10;
const LANGUAGES = ['en', 'es', 'fr', 'de', 'it'];
const BODY_BYTES = 200 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

interface Session { cookie: string; csrf: string }

/** Signs in; the demo account is seeded just after the server answers its health check, so a few tries. */
async function signIn(base: string, email: string): Promise<Session> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await signInOnce(base, email);
    } catch (error) {
      if (attempt >= 60) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function signInOnce(base: string, email: string): Promise<Session> {
  const res = await fetch(`${base}/api/auth/csrf`);
  const csrfCookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = csrfCookie.split('=')[1] ?? '';
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: csrfCookie, [CSRF_HEADER]: csrf },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (!cookies.some((c) => c?.startsWith(`${AUTH_COOKIES.access}=`))) throw new Error(`login failed: ${await login.text()}`);
  return { cookie: [csrfCookie, ...cookies].join('; '), csrf };
}

async function call<T>(base: string, s: Session, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method, headers: { 'content-type': 'application/json', cookie: s.cookie, [CSRF_HEADER]: s.csrf }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as T & { status: string };
  if (answer.status !== 'OK') throw new Error(`${method} ${path}: ${JSON.stringify(answer).slice(0, 500)}`);
  return answer;
}

/** A body of about `bytes` of realistic HTML, different per variant and language. */
const htmlBody = (seed: string, bytes: number) => {
  const row = `<tr><td style="padding:8px;font-family:Arial">Offer ${seed} — {{customer_id}}, this week only</td></tr>\n`;
  return `<html><body><table>${row.repeat(Math.ceil(bytes / row.length))}</table></body></html>`.slice(0, bytes);
};

function bigDraft(base: MessageDraft): MessageDraft {
  const shares = evenShares(VARIANTS);
  return {
    ...base,
    name: 'Winter sale A/B',
    target: { kind: 'testDevices' },
    languages: LANGUAGES,
    variants: Array.from({ length: VARIANTS }, (_, i) => ({
      id: `v${i}`, name: `Variant ${i + 1}`, share: shares[i] ?? 0,
      content: Object.fromEntries(LANGUAGES.map((lang) => [lang, {
        ...createMessageContent('email'), subject: `Winter sale ${i} (${lang})`, sender_email: 'news@example.com', sender_name: 'Growth team', html_body: htmlBody(`${i}-${lang}`, BODY_BYTES),
      }])),
    })),
  };
}

const stats = (label: string, ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(`${label}: p50 ${fmt(percentile(sorted, 50))}, p95 ${fmt(percentile(sorted, 95))}, max ${fmt(sorted.at(-1) ?? NaN)} (${ms.length} runs)`);
};

const db = await freshDatabase('gd_bench_messages');
const server = await startServerProcess({ DATABASE_URL: db.url, WORKER: 'off' }, 4291);
const clients: { destroy(): void }[] = [];
try {
  const owner = await signIn(server.base, 'client@demo.growthdeck.test');
  const manager = await signIn(server.base, 'manager@demo.growthdeck.test');
  await call(server.base, owner, 'PUT', '/account/approval-policy', { required: 1, authorsMayApprove: false });
  const { apps } = await call<{ apps: { id: string }[] }>(server.base, owner, 'GET', '/apps');
  const appId = apps[0]!.id;
  const { message } = await call<{ message: { id: string; docName: string } }>(server.base, owner, 'POST', `/apps/${appId}/messages`, { name: 'Winter sale A/B', type: 'test_ab' });
  const first = await call<{ url: string }>(server.base, owner, 'POST', '/docs/token', { name: message.docName });
  const doc = openClient({ url: first.url, name: message.docName, token: async () => (await call<{ token: string }>(server.base, owner, 'POST', '/docs/token', { name: message.docName })).token });
  clients.push(doc);
  await waitFor(() => synced(doc), 'draft synced', 30_000);

  // Written content by content: one live edit stays under the per-update limit (512 KB).
  const draft = bigDraft(messageDraftFromDoc(doc.doc));
  const written: MessageDraft = { ...draft, variants: [] };
  applyMessageDraftToDoc(doc.doc, written);
  for (const v of draft.variants) {
    for (const lang of LANGUAGES) {
      const current = written.variants.find((x) => x.id === v.id);
      if (current) current.content[lang] = v.content[lang]!;
      else written.variants.push({ ...v, content: { [lang]: v.content[lang]! } });
      applyMessageDraftToDoc(doc.doc, written);
      await waitFor(() => !doc.provider.hasUnsyncedChanges, 'content acknowledged', 30_000);
    }
  }
  const stateBytes = Y.encodeStateAsUpdate(doc.doc).byteLength;
  console.log(`draft: ${VARIANTS} variants × ${LANGUAGES.length} languages, ${BODY_BYTES / 1024} KB body each; Yjs state ${(stateBytes / 1024 / 1024).toFixed(1)} MB`);

  const submitMs: number[] = [];
  const approveMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const live = messageDraftFromDoc(doc.doc);
    applyMessageDraftToDoc(doc.doc, { ...live, name: `Winter sale A/B ${run}` });
    await waitFor(() => !doc.provider.hasUnsyncedChanges, 'edit acknowledged', 30_000);
    let t = performance.now();
    const { message: submitted } = await call<{ message: { submission: { id: string } } }>(server.base, owner, 'POST', `/apps/${appId}/messages/${message.id}/submit`);
    submitMs.push(performance.now() - t);
    t = performance.now();
    await call(server.base, manager, 'POST', `/apps/${appId}/messages/${message.id}/approve`, { submissionId: submitted.submission.id });
    approveMs.push(performance.now() - t);
    // Back to Draft for the next round (an approved message is reopened with "draft").
    await call(server.base, owner, 'POST', `/apps/${appId}/messages/${message.id}/transition`, { action: 'draft' });
  }
  stats('submit', submitMs);
  stats('approve (the approval that commits the version)', approveMs);

  // The diff approvers see: the snapshot against the live draft with one field changed.
  const snapshot = messageDraftFromDoc(doc.doc);
  const changed = structuredClone(snapshot);
  changed.variants[7]!.content.de!.html_body = `${changed.variants[7]!.content.de!.html_body.slice(0, -10)}!changed!`;
  const diffMs: number[] = [];
  let found = 0;
  for (let i = 0; i < 5; i++) diffDrafts(snapshot, changed); // warm-up
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    found = diffDrafts(snapshot, changed).length;
    diffMs.push(performance.now() - t);
  }
  stats(`snapshot diff (${found} change found)`, diffMs);
} finally {
  for (const c of clients) c.destroy();
  await server.stop();
  await db.drop();
}
