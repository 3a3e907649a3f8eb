/** How share services read on screen. */
import type { useT } from '../../../i18n/useT.ts';

type Service = 'meta_ads' | 'tiktok_ads' | 'google_ads' | 'the_trade_desk';
const SERVICES = new Set<string>(['meta_ads', 'tiktok_ads', 'google_ads', 'the_trade_desk']);

export function serviceLabel(t: ReturnType<typeof useT>['t'], service: string): string {
  return SERVICES.has(service) ? t(`audienceShare.services.${service as Service}`) : service;
}
