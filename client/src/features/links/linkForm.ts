/**
 * The link dialog's values and checks, pure so they are tested: flat form values (one text per
 * field, empty = not set) to the shared `LinkInput`, the schema's issues back onto the fields, and
 * the API's refusals (30 on `code`, 10 on `campaignId`, `no_destination`) as field errors.
 */
import type { z } from 'zod';
import { TRACKING_LINK_PARAMS, type AcqDestinations, type TrackingLinkParam } from '@gd/shared/acquisition/model';
import { LinkInput, type Link, type LinkInputDraft } from '@gd/shared/schemas/links';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import type { ValidationIssue } from '@gd/shared/errors';
import { splitFailure, validationText } from '../../ui/forms.ts';

export interface PlatformValues { store: string; deepLink: string; web: string }
export interface LinkFormValues {
  campaignId: string | null;
  name: string;
  code: string;
  active: boolean;
  deepLink: string;
  /** A landing page as the web fallback (issue 17), or null. */
  landingId: string | null;
  params: Record<TrackingLinkParam, string>;
  ios: PlatformValues;
  android: PlatformValues;
  desktopWeb: string;
}

const emptyParams = () => Object.fromEntries(TRACKING_LINK_PARAMS.map((p) => [p, ''])) as Record<TrackingLinkParam, string>;

export function linkFormValues(link?: Link): LinkFormValues {
  const d = link?.destinations ?? {};
  const platform = (p: 'ios' | 'android'): PlatformValues => ({ store: d[p]?.store ?? '', deepLink: d[p]?.deepLink ?? '', web: d[p]?.web ?? '' });
  return {
    campaignId: link?.campaignId ?? null,
    name: link?.name ?? '',
    code: link?.code ?? '',
    active: link?.active ?? true,
    deepLink: link?.deepLink ?? '',
    landingId: link?.landingId ?? null,
    params: { ...emptyParams(), ...link?.params },
    ios: platform('ios'),
    android: platform('android'),
    desktopWeb: d.desktop?.web ?? '',
  };
}

const filled = (s: string) => s.trim() !== '';

/** The request body of the form (create: with kind and code; edit: without). */
export function linkInput(values: LinkFormValues, kind: Link['kind'], creating: boolean): LinkInputDraft {
  const destinations: AcqDestinations = {};
  for (const p of ['ios', 'android'] as const) {
    const v = values[p];
    const dest = Object.fromEntries((['store', 'deepLink', 'web'] as const).filter((f) => filled(v[f])).map((f) => [f, v[f].trim()]));
    if (Object.keys(dest).length) destinations[p] = dest;
  }
  if (filled(values.desktopWeb)) destinations.desktop = { web: values.desktopWeb.trim() };
  const params = Object.fromEntries(TRACKING_LINK_PARAMS.filter((p) => filled(values.params[p])).map((p) => [p, values.params[p].trim()]));
  return {
    campaignId: values.campaignId ?? '',
    kind,
    name: values.name,
    ...(creating && filled(values.code) ? { code: values.code.trim() } : {}),
    params,
    destinations,
    deepLink: filled(values.deepLink) ? values.deepLink.trim() : null,
    landingId: values.landingId,
    active: values.active,
  };
}

/** A request path (destinations.ios.store) as the form's field (ios.store). */
export function formPath(path: string): string {
  if (path === 'destinations.desktop.web' || path === 'destinations.desktop') return 'desktopWeb';
  if (path.startsWith('destinations.')) return path.slice('destinations.'.length);
  return path;
}

const ISSUES: Record<string, TKey> = {
  no_destination: 'links.issues.no_destination',
  code_taken: 'links.issues.code_taken',
  not_found: 'links.issues.not_found',
  landing_not_found: 'landings.issues.not_found',
};

export function validateLink(values: LinkFormValues, kind: Link['kind'], creating: boolean, t: TFunction): Record<string, string> {
  const result = (LinkInput as z.ZodType).safeParse(linkInput(values, kind, creating));
  const errors: Record<string, string> = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = formPath(issue.path.map(String).join('.'));
      errors[path === 'campaignId' && !values.campaignId ? 'campaignId' : path] ??= path === 'campaignId' && !values.campaignId ? t('validation.required') : validationText(issue as ValidationIssue, t);
    }
  }
  return errors;
}

const FIELDS = ['campaignId', 'name', 'code', 'deepLink', 'landingId', 'destinations', 'ios.store', 'ios.deepLink', 'ios.web', 'android.store', 'android.deepLink', 'android.web', 'desktopWeb',
  ...TRACKING_LINK_PARAMS.map((p) => `params.${p}`)];

/** A refused save as field errors (on the form's paths) and a form error. */
export function linkFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  const split = splitFailure(error, t, FIELDS.map((f) => (f === 'desktopWeb' ? 'destinations.desktop.web' : f.startsWith('ios.') || f.startsWith('android.') ? `destinations.${f}` : f)), (message) => {
    const key = ISSUES[message];
    return key ? t(key) : undefined;
  });
  const fieldErrors: Record<string, string> = {};
  for (const [path, text] of Object.entries(split.fieldErrors)) fieldErrors[path === 'destinations' ? 'destinations' : formPath(path)] = text;
  return { fieldErrors, formError: split.formError };
}
