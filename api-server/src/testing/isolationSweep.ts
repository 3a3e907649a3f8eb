/**
 * What the two tenant sweeps with the caller's own app share (isolation-child.int.test.ts and
 * isolation-acquisition.int.test.ts): sending a probe, comparing two answers once the ids named are
 * replaced by one placeholder, and every row of the victim's, table by table.
 */
import { endpoints, fillPath, type EndpointName } from '@gd/shared';
import { none } from '@gd/shared/endpoints/define';
import type { Db } from '../db/pool.ts';
import type { ApiAnswer, TestClient } from './harness.ts';

export interface Probe { params?: Record<string, string>; body?: unknown; query?: Record<string, string> }

/** Calls an endpoint; a file route's OK answer (CSV) comes back as `{ status: 'OK', file: <text> }`. */
export async function send(client: TestClient, name: EndpointName, probe: Probe): Promise<ApiAnswer> {
  const e = endpoints[name];
  const query = probe.query ? `?${new URLSearchParams(probe.query).toString()}` : '';
  const path = fillPath(e.path, probe.params) + query;
  if (e.method !== 'GET' || (e as { response: unknown }).response !== none) {
    return client.raw(e.method, path, e.method === 'GET' ? {} : { body: JSON.stringify(probe.body ?? {}) });
  }
  const res = await fetch(`${client.base}/api${path}`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  const text = await res.text();
  const body = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) as ApiAnswer['body'] : { status: res.ok ? 'OK' as const : 'KO' as const, file: text };
  return { httpStatus: res.status, body };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The answer with `ids` (the victim's and the unused one) as one placeholder, and generated ids and instants masked. */
export function comparable(answer: ApiAnswer, ids: string[]): unknown {
  const named = new RegExp(ids.map((id) => `(?<![\\w-])${escape(id)}(?![\\w-])`).join('|'), 'g');
  const strings = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(named, '<child>').replace(UUID, '<uuid>').replace(INSTANT, '<instant>');
    if (Array.isArray(v)) return v.map(strings);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strings(x)]));
    return v;
  };
  return { httpStatus: answer.httpStatus, body: strings(answer.body) };
}

// ---------------------------------------------------------------------------------------------
// Every row of the victim's, table by table.

/**
 * Tables without an app or account column, and how their rows belong to one ($1 the account,
 * $2 the apps, $3 whether account rows count). A new table that fits none of these fails the sweeps.
 */
export const CHILD_TABLES: Record<string, string> = {
  accounts: '$3 AND id = $1',
  apps: 'id = ANY($2) OR ($3 AND account_id = $1)',
  journey_events: 'journey_id IN (SELECT id FROM journeys WHERE app_id = ANY($2))',
  journey_versions: 'journey_id IN (SELECT id FROM journeys WHERE app_id = ANY($2))',
  journey_entry_marks: 'journey_id IN (SELECT id FROM journeys WHERE app_id = ANY($2))',
  journey_step_counts: 'journey_id IN (SELECT id FROM journeys WHERE app_id = ANY($2))',
  journey_passages: 'entry_id IN (SELECT id FROM journey_entries WHERE app_id = ANY($2))',
  message_submissions: 'message_id IN (SELECT id FROM messages WHERE app_id = ANY($2))',
  message_decisions: 'submission_id IN (SELECT s.id FROM message_submissions s JOIN messages m ON m.id = s.message_id WHERE m.app_id = ANY($2))',
  message_comments: 'message_id IN (SELECT id FROM messages WHERE app_id = ANY($2))',
  message_versions: 'message_id IN (SELECT id FROM messages WHERE app_id = ANY($2))',
  message_events: 'message_id IN (SELECT id FROM messages WHERE app_id = ANY($2))',
  document_updates: 'name IN (SELECT name FROM documents WHERE app_id = ANY($2))',
  import_rows: 'task_id IN (SELECT id FROM import_tasks WHERE app_id = ANY($2))',
  stored_file_chunks: 'file_id IN (SELECT id FROM import_tasks WHERE app_id = ANY($2) UNION SELECT id FROM audience_exports WHERE app_id = ANY($2) UNION SELECT id FROM report_runs WHERE app_id = ANY($2))',
  refresh_tokens: '$3 AND user_id IN (SELECT id FROM users WHERE account_id = $1)',
  one_time_tokens: '$3 AND user_id IN (SELECT id FROM users WHERE account_id = $1)',
  password_history: '$3 AND user_id IN (SELECT id FROM users WHERE account_id = $1)',
  // The members of the account's providers (migration 040): users of the account.
  provider_members: '$3 AND account_provider_id IN (SELECT id FROM account_providers WHERE account_id = $1)',
  // What each audience share uploaded, per person (migration 049).
  audience_share_members: 'share_id IN (SELECT id FROM audience_shares WHERE app_id = ANY($2))',
};
/** Tables of nobody's, with why they cannot hold the victim's data. */
export const GLOBAL_TABLES: Record<string, string> = {
  ad_providers: 'the platform\'s ad provider catalogue (migration 040): every account reads it, only platform administrators change it (neither caller is one); what an account picks from it is account_providers',
  login_failures: 'sign-in attempts by e-mail and address, before any account is known',
  mail_outbox: 'addressed mail; an invitation into the victim\'s account would show as a users row',
  provider_rate_windows: 'counts of sends per provider and second (delivery/rateLimit.ts), keyed by a provider id: no content, and no request writes it',
  schema_migrations: 'the migrations applied',
  server_secrets: 'the servers\' own secrets',
};

/** Whose rows: the victim's account and apps, and whether the account's own rows (users, roles, ...) count. */
export interface VictimScope { accountId: string; apps: string[]; accountRows: boolean }

/** The victim's rows in `scope`, every table (classified above or by its app_id / account_id column). */
export async function victimRows(db: Db, scope: VictimScope): Promise<Record<string, string[]>> {
  const { rows: tables } = await db.query<{ name: string; app: boolean; account: boolean }>(
    `SELECT c.relname AS name,
            EXISTS (SELECT 1 FROM information_schema.columns k WHERE k.table_schema = 'public' AND k.table_name = c.relname AND k.column_name = 'app_id') AS app,
            EXISTS (SELECT 1 FROM information_schema.columns k WHERE k.table_schema = 'public' AND k.table_name = c.relname AND k.column_name = 'account_id') AS account
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
  );
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    if (t.name in GLOBAL_TABLES) continue;
    const where = CHILD_TABLES[t.name] ?? (t.app ? 'app_id = ANY($2)' : t.account ? '$3 AND account_id = $1' : null);
    if (where === null) throw new Error(`table ${t.name}: say how its rows belong to an account (CHILD_TABLES) or why they do not (GLOBAL_TABLES)`);
    const { rows } = await db.query<{ r: string }>(
      `WITH scope AS (SELECT $1::uuid AS a, $2::uuid[] AS b, $3::boolean AS c)
       SELECT to_jsonb(t)::text AS r FROM "${t.name}" t, scope WHERE ${where.replaceAll('$1', 'scope.a').replaceAll('$2', 'scope.b').replaceAll('$3', 'scope.c')} ORDER BY 1`,
      [scope.accountId, scope.apps, scope.accountRows],
    );
    out[t.name] = rows.map((r) => r.r);
  }
  return out;
}
