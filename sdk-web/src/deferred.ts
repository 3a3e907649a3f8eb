/**
 * Deferred deep links (issue 16). A tracking link's click lands on the web fallback with
 * `gd_click=<click id>` (and `gd_dl=<deep link>`); the tracker's first run sends that click id as
 * its install's `gd_click` property (the install referrer: the API matches the install to that
 * click), and keeps `gd_dl`. `deferredDeepLink()` asks the API once per install
 * (`POST /sdk/v1/deferred-link`) for the deep link and parameters of the click the install was
 * attributed to: the API hands them over exactly once. When the API cannot be reached, the landing
 * address's `gd_dl` is the answer (once too); an unreachable API with no `gd_dl` answers null and
 * may be asked again later.
 */
import { APP_KEY_HEADER } from './transport.ts';

export interface DeferredDeepLink { deepLink: string; params: Record<string, string> }
type Answer = { status?: string; deepLink?: string | null; params?: Record<string, string> | null } | null;

const param = (name: string): string | null => {
  if (typeof location === 'undefined') return null;
  return new URLSearchParams(location.search).get(name)?.trim().slice(0, 2048) || null;
};

/** The click id of the landing address (`gd_click`), as install properties. */
export function landingClick(): Record<string, string> | undefined {
  const click = param('gd_click');
  return click ? { gd_click: click } : undefined;
}

export interface DeferredContext {
  base: string;
  appKey: string;
  fetcher: typeof fetch;
  deviceId: string;
  firstRun: boolean;
  flush(): Promise<void>;
  store: { get(key: string): string | null; set(key: string, value: string): void };
}

export function deferredApi(ctx: DeferredContext) {
  // The landing address's deep link and click, kept from the first run for a later page.
  if (ctx.firstRun && param('gd_dl')) ctx.store.set('dl', JSON.stringify([param('gd_dl'), param('gd_click')]));
  return {
    async deferredDeepLink(): Promise<DeferredDeepLink | null> {
      if (ctx.store.get('dl:done')) return null;
      // The install must reach the API before it is asked about it.
      await ctx.flush();
      const answer = await ctx.fetcher(`${ctx.base}/sdk/v1/deferred-link`, {
        method: 'POST', headers: { 'content-type': 'application/json', [APP_KEY_HEADER]: ctx.appKey }, body: JSON.stringify({ device: ctx.deviceId }),
      }).then((res) => res.json() as Promise<Answer>).catch(() => null);
      if (answer?.status === 'OK') {
        ctx.store.set('dl:done', '1');
        return answer.deepLink ? { deepLink: answer.deepLink, params: answer.params ?? {} } : null;
      }
      const kept = JSON.parse(ctx.store.get('dl') ?? 'null') as [string, string | null] | null;
      if (!kept) return null;
      ctx.store.set('dl:done', '1');
      return { deepLink: kept[0], params: kept[1] ? { gd_click: kept[1] } : {} };
    },
  };
}
