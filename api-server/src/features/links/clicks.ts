/**
 * Clicks (acq_clicks): storing them, and reading a click's user agent.
 *
 * `recordClicks(db, rows)` is the one way clicks are written: the link host (through the group
 * commit of `ClickWriter`), the demo seed and other pieces' tests. One statement for any number of
 * rows (arrays unnested server-side), so a batch is one round trip.
 *
 * `ClickWriter` is the link host's group commit: a click queued while no insert is running is
 * written at once; clicks queued while one runs wait for it and go together in the next insert
 * (at most BATCH_MAX rows). Each click's promise settles when its own row is stored, so the host
 * answers the redirect only then. Throughput comes from the batching, latency from never waiting
 * on a timer.
 */
import { randomUUID } from 'node:crypto';
import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { ClickPlatform } from '@gd/shared';
import { statement, type Queryable } from '../../db/pool.ts';

export interface ClickRow {
  /** Generated when absent (the host generates it first, so the redirect can carry it). */
  id?: string;
  appId: string;
  /** Defaults to now. */
  clickedAt?: Date;
  linkId: string;
  campaignId: string;
  sourceId: string;
  ip?: string | null;
  userAgent?: string | null;
  platform: ClickPlatform;
  os?: string | null;
  osVersion?: string | null;
  device?: string | null;
  browser?: string | null;
  idfa?: string | null;
  idfv?: string | null;
  gaid?: string | null;
  oaid?: string | null;
  /** The tracking link parameters of the click (SPEC §3). */
  params?: Record<string, string>;
  referrer?: string | null;
  country?: string | null;
  /** Prefetchers and crawlers: stored, never counted or attributed. */
  bot?: boolean;
  botReason?: string | null;
}

const INSERT = `INSERT INTO acq_clicks (id, app_id, clicked_at, link_id, campaign_id, source_id, ip, user_agent, platform, os, os_version,
    device, browser, idfa, idfv, gaid, oaid, params, referrer, country, bot, bot_reason)
  SELECT id, app_id, clicked_at, link_id, campaign_id, source_id, ip, user_agent, platform, os, os_version,
    device, browser, idfa, idfv, gaid, oaid, params::jsonb, referrer, country, bot, bot_reason
  FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::uuid[], $5::uuid[], $6::uuid[], $7::inet[], $8::text[], $9::text[],
    $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[],
    $20::text[], $21::boolean[], $22::text[])
    AS c(id, app_id, clicked_at, link_id, campaign_id, source_id, ip, user_agent, platform, os, os_version,
      device, browser, idfa, idfv, gaid, oaid, params, referrer, country, bot, bot_reason)`;

/** Stores the clicks in one statement; answers their ids in the rows' order. */
export async function recordClicks(db: Queryable, rows: readonly ClickRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id ?? randomUUID());
  const now = new Date();
  const column = <T>(pick: (r: ClickRow) => T) => rows.map(pick);
  await db.query(statement('acq_record_clicks', INSERT, [
    ids,
    column((r) => r.appId),
    column((r) => (r.clickedAt ?? now).toISOString()),
    column((r) => r.linkId),
    column((r) => r.campaignId),
    column((r) => r.sourceId),
    column((r) => r.ip ?? null),
    column((r) => r.userAgent ?? null),
    column((r) => r.platform),
    column((r) => r.os ?? null),
    column((r) => r.osVersion ?? null),
    column((r) => r.device ?? null),
    column((r) => r.browser ?? null),
    column((r) => r.idfa ?? null),
    column((r) => r.idfv ?? null),
    column((r) => r.gaid ?? null),
    column((r) => r.oaid ?? null),
    column((r) => JSON.stringify(r.params ?? {})),
    column((r) => r.referrer ?? null),
    column((r) => r.country ?? null),
    column((r) => r.bot ?? false),
    column((r) => r.botReason ?? null),
  ]));
  return ids;
}

/** Most rows one group-commit insert takes. */
export const BATCH_MAX = 1000;

interface Queued { row: ClickRow; resolve: () => void; reject: (error: unknown) => void }

/** The link host's group commit (see the module comment). */
export class ClickWriter {
  private queue: Queued[] = [];
  private running = 0;
  private readonly db: Queryable;
  /** Inserts allowed at once (each takes a pooled connection). */
  private readonly parallel: number;

  constructor(db: Queryable, parallel = 2) {
    this.db = db;
    this.parallel = parallel;
  }

  /** Resolves when the click's row is stored. */
  write(row: ClickRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.parallel && this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH_MAX);
      this.running++;
      recordClicks(this.db, batch.map((q) => q.row)).then(
        () => { for (const q of batch) q.resolve(); },
        (error: unknown) => { for (const q of batch) q.reject(error); },
      ).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}

/** What the host reads from a user agent. */
export interface DescribedAgent {
  platform: ClickPlatform;
  os: string | null;
  osVersion: string | null;
  device: string | null;
  browser: string | null;
  /** A crawler or link previewer (isbot, or the parser's own bot platform). */
  bot: boolean;
}

const described = new Map<string, DescribedAgent>();
const DESCRIBED_MAX = 5000;

/** Parses a user agent (bowser; isbot for crawlers), remembering the last few thousand. */
export function describeAgent(userAgent: string): DescribedAgent {
  const known = described.get(userAgent);
  if (known) return known;
  const parsed = Bowser.parse(userAgent);
  const osName = parsed.os.name ?? '';
  const platform: ClickPlatform = /^ios$/i.test(osName) ? 'ios' : /^android$/i.test(osName) ? 'android' : 'desktop';
  const model = parsed.platform.model ?? (platform === 'android' ? androidModel(userAgent) : undefined);
  const device = [parsed.platform.vendor, model].filter((part, i, all) => part && all.indexOf(part) === i).join(' ') || parsed.platform.type || null;
  const result: DescribedAgent = {
    platform,
    os: osName || null,
    osVersion: parsed.os.version || null,
    device,
    browser: parsed.browser.name ? [parsed.browser.name, parsed.browser.version].filter(Boolean).join(' ') : null,
    bot: parsed.platform.type === 'bot' || isbot(userAgent),
  };
  if (described.size >= DESCRIBED_MAX) described.clear();
  described.set(userAgent, result);
  return result;
}

/** "Pixel 8" from "Mozilla/5.0 (Linux; Android 14; Pixel 8) ...". */
function androidModel(userAgent: string): string | undefined {
  const model = /Android [^;)]*; ([^;)]+?)(?: Build\/[^;)]*)?\)/.exec(userAgent)?.[1]?.trim();
  return model && model !== 'K' && !/^wv$/i.test(model) ? model : undefined;
}

/**
 * Why a request is not a person's click, or null when it is: a HEAD request, a prefetch
 * (`Purpose` / `Sec-Purpose` / `X-Purpose` / `X-Moz`), no user agent, or a crawler's.
 */
export function botReason(method: string, headers: Readonly<Record<string, string | string[] | undefined>>, agent: DescribedAgent | null): string | null {
  if (method === 'HEAD') return 'head';
  for (const name of ['sec-purpose', 'purpose', 'x-purpose', 'x-moz']) {
    const value = headers[name];
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text && /prefetch|preview|prerender/i.test(text)) return 'prefetch';
  }
  if (!agent) return 'no_user_agent';
  return agent.bot ? 'bot' : null;
}
