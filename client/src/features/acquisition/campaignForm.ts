/**
 * The campaign dialog's values and the request they make (pure, so they are tested): empty texts
 * become nulls, the per-platform store and web addresses become the shared `AcqDestinations`.
 */
import type { Campaign, CampaignInput } from '@gd/shared/schemas/acquisition';
import type { PricingModel } from '@gd/shared/acquisition/model';

export interface CampaignFormValues {
  name: string;
  sourceId: string;
  channelId: string;
  pricingModel: PricingModel;
  costValue: number | string;
  currency: string;
  costEvent: string;
  startDay: string;
  endDay: string;
  status: Campaign['status'];
  deepLink: string;
  iosStore: string;
  androidStore: string;
  web: string;
}

export const CAMPAIGN_FIELDS = ['name', 'sourceId', 'channelId', 'pricingModel', 'costValue', 'currency', 'costEvent', 'startDay', 'endDay', 'status', 'deepLink', 'iosStore', 'androidStore', 'web'] as const;

export function campaignFormValues(c?: Campaign, defaults: { sourceId?: string } = {}): CampaignFormValues {
  return {
    name: c?.name ?? '',
    sourceId: c?.sourceId ?? defaults.sourceId ?? '',
    channelId: c?.channelId ?? '',
    pricingModel: c?.pricingModel ?? 'cpi',
    costValue: c?.costValue ?? 0,
    currency: c?.currency ?? 'USD',
    costEvent: c?.costEvent ?? '',
    startDay: c?.startDay ?? '',
    endDay: c?.endDay ?? '',
    status: c?.status ?? 'active',
    deepLink: c?.deepLink ?? '',
    iosStore: c?.destinations.ios?.store ?? '',
    androidStore: c?.destinations.android?.store ?? '',
    web: c?.destinations.desktop?.web ?? '',
  };
}

const text = (s: string) => s.trim() || null;

/** The request body (before the shared schema checks it); `keep` carries destination parts the form does not edit. */
export function campaignBody(v: CampaignFormValues, keep?: Campaign['destinations']): CampaignInput {
  const web = text(v.web);
  const platform = (current: { store?: string; deepLink?: string; web?: string } | undefined, store: string) => {
    const out = { ...current };
    delete out.store;
    delete out.web;
    const s = text(store);
    if (s) out.store = s;
    if (web) out.web = web;
    return Object.keys(out).length ? out : undefined;
  };
  const destinations: CampaignInput['destinations'] = {};
  const ios = platform(keep?.ios, v.iosStore);
  const android = platform(keep?.android, v.androidStore);
  if (ios) destinations.ios = ios;
  if (android) destinations.android = android;
  if (web) destinations.desktop = { web };
  return {
    name: v.name,
    sourceId: v.sourceId,
    channelId: v.channelId || null,
    pricingModel: v.pricingModel,
    costValue: typeof v.costValue === 'number' ? v.costValue : Number(v.costValue || 0),
    currency: v.currency,
    costEvent: v.pricingModel === 'cpa' ? text(v.costEvent) : null,
    startDay: text(v.startDay),
    endDay: text(v.endDay),
    status: v.status,
    destinations,
    deepLink: text(v.deepLink),
  };
}

/** A schema issue's path in the request, as the form's field name. */
export function formField(path: string): string {
  if (path.startsWith('destinations.ios')) return 'iosStore';
  if (path.startsWith('destinations.android')) return 'androidStore';
  if (path.startsWith('destinations.')) return 'web';
  return path;
}

/** A ratio as a percentage, an amount or a count, or the "no value" dash for null. */
export function figureText(value: number | null | undefined, kind: 'count' | 'percent' | 'ratio', locale: string, dash: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  if (kind === 'count') return new Intl.NumberFormat(locale).format(value);
  if (kind === 'percent') return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
}
