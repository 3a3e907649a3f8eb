/**
 * The adobe audience import's source: a segment's members read from an experience-platform
 * integration's export API, page by page, through the integration (Authorization, x-api-key and
 * x-gw-ims-org-id headers; the token refreshed when it is about to expire).
 *
 * Protocol (a simple documented shape; `baseUrl` is the integration's API base):
 *   GET {baseUrl}/data/core/ups/audiences/{segmentId}/members?limit=1000[&start=<cursor>]
 *   200 {"members": [{"id": "<identifier>"}, ...], "_page": {"next": "<cursor>" | null}}
 *   404: the segment does not exist (not retried); 401/403: the credentials were refused (the
 *   integration's status becomes error; not retried); 408/429/5xx and network failures: retried
 *   by the import's own backoff.
 * The members become a one-column CSV (header `id`, one identifier a row, quoted when needed)
 * that the import pipeline stages like any file, so matching, progress and atomic replacement are
 * the same as for every other import type.
 */
import { Readable } from 'node:stream';
import { ADOBE_EXPORT_PAGE_SIZE } from '@gd/shared';
import { NetError, guardedRequest, readBody, type NetPolicy } from '../../net/index.ts';
import { ImportFailure } from '../imports/errors.ts';
import type { SourceStream } from '../imports/sources.ts';
import { integrationAccess, markIntegrationError, failCodeOf, type AccessDeps, type IntegrationAccess } from './access.ts';
import { baseUrlOf, serviceHeaders } from './connectionTest.ts';

const PAGE_REQUEST = { connectTimeoutMs: 10_000, idleMs: 30_000, totalMs: 60_000, maxBytes: 16 * 1024 * 1024 } as const;
/** A runaway cursor (a server that always answers `next`) stops here: 10 million members. */
const MAX_PAGES = 10_000;

export const membersUrl = (a: Pick<IntegrationAccess, 'service' | 'config'>, segmentId: string, cursor: string | null): string => {
  const url = new URL(`${baseUrlOf(a)}/data/core/ups/audiences/${encodeURIComponent(segmentId)}/members`);
  url.searchParams.set('limit', String(ADOBE_EXPORT_PAGE_SIZE));
  if (cursor) url.searchParams.set('start', cursor);
  return url.toString();
};

const csvCell = (s: string) => (/[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s);

async function page(deps: AccessDeps, appId: string, integrationId: string, segmentId: string, cursor: string | null, net: NetPolicy, signal?: AbortSignal): Promise<{ ids: string[]; next: string | null }> {
  const access = await integrationAccess(deps, appId, integrationId);
  if (!access.ok) {
    throw new ImportFailure('NoRecoverableTaskError', `NoRecoverableTaskError: the experience-platform integration cannot be used: ${access.message}`);
  }
  const a = access.value;
  if (a.kind !== 'experience_platform') throw new ImportFailure('NoRecoverableTaskError', 'NoRecoverableTaskError: adobeId names an integration that is not an experience platform');
  let status: number;
  let text: string;
  try {
    const res = await guardedRequest(membersUrl(a, segmentId, cursor), net, { ...PAGE_REQUEST, method: 'GET', headers: serviceHeaders(a), signal });
    status = res.status;
    text = (await readBody(res)).toString('utf8');
  } catch (error) {
    const why = error instanceof NetError ? error.message : 'the connection failed';
    throw new ImportFailure('CopyImportFileError', `CopyImportFileError: the experience platform could not be reached (${why})`, { recoverable: !(error instanceof NetError && error.reason === 'refused_address') });
  }
  if (status === 401 || status === 403) {
    await markIntegrationError(deps.db, integrationId, failCodeOf(a.service), `The experience platform refused the credentials (HTTP ${status})`);
    throw new ImportFailure('NoRecoverableTaskError', `NoRecoverableTaskError: the experience platform refused the integration's credentials (HTTP ${status})`);
  }
  if (status === 404) throw new ImportFailure('CopyImportFileError', `CopyImportFileError: the experience platform has no segment ${segmentId}`);
  if (status < 200 || status >= 300) {
    throw new ImportFailure('CopyImportFileError', `CopyImportFileError: the experience platform answered HTTP ${status}`, { recoverable: status >= 500 || status === 429 || status === 408 });
  }
  let body: { members?: unknown; _page?: { next?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new ImportFailure('CopyImportFileError', 'CopyImportFileError: the experience platform answered something that is not JSON');
  }
  if (!Array.isArray(body.members)) throw new ImportFailure('CopyImportFileError', 'CopyImportFileError: the experience platform answered without a members list');
  const ids = body.members.flatMap((m: unknown) => {
    const id = (m as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id.trim() ? [id.trim()] : typeof id === 'number' ? [String(id)] : [];
  });
  const next = typeof body._page?.next === 'string' && body._page.next ? body._page.next : null;
  return { ids, next };
}

/** The members of the segment as a CSV stream (see the module doc). */
export function adobeSegmentSource(deps: AccessDeps, p: { appId: string; integrationId: string; segmentId: string; net: NetPolicy; signal?: AbortSignal | undefined }): SourceStream {
  async function* lines(): AsyncGenerator<Buffer> {
    yield Buffer.from('id\n');
    let cursor: string | null = null;
    for (let n = 0; n < MAX_PAGES; n++) {
      const { ids, next } = await page(deps, p.appId, p.integrationId, p.segmentId, cursor, p.net, p.signal);
      if (ids.length > 0) yield Buffer.from(`${ids.map(csvCell).join('\n')}\n`);
      if (!next || next === cursor) return;
      cursor = next;
    }
    throw new ImportFailure('CopyImportFileError', 'CopyImportFileError: the experience platform kept answering more pages than an import reads');
  }
  return { stream: Readable.from(lines(), { objectMode: false }), bytesTotal: null };
}
