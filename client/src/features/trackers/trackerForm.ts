/**
 * The tracker dialog's values, checks and body, pure so they are tested: the shared `TrackerInput`
 * schema in the person's language. An empty URL means "the provider's event URL", which the
 * provider must then have; the dialog says so before the API does (10001 on `postbackUrl`).
 */
import { TrackerInput, type Tracker, type TrackerProvider } from '@gd/shared/schemas/postbacks';
import type { TFunction } from '../../i18n/keys.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';

export interface TrackerFormValues {
  name: string; event: string; accountProviderId: string | null; campaignId: string | null; postbackUrl: string; providerEvent: string; macros: string[]; active: boolean;
}

const FIELDS = ['name', 'event', 'accountProviderId', 'campaignId', 'postbackUrl', 'providerEvent', 'macros', 'active'] as const;

export function initialTrackerValues(tracker?: Tracker, providers: readonly TrackerProvider[] = []): TrackerFormValues {
  return tracker
    ? { name: tracker.name, event: tracker.event, accountProviderId: tracker.accountProviderId, campaignId: tracker.campaignId, postbackUrl: tracker.postbackUrl ?? '', providerEvent: tracker.providerEvent ?? '', macros: tracker.macros, active: tracker.active }
    : { name: '', event: '', accountProviderId: providers.length === 1 ? (providers[0]?.id ?? null) : null, campaignId: null, postbackUrl: '', providerEvent: '', macros: [], active: true };
}

export function trackerBody(v: TrackerFormValues) {
  return {
    name: v.name.trim(), event: v.event.trim(), accountProviderId: v.accountProviderId ?? '', campaignId: v.campaignId,
    postbackUrl: v.postbackUrl.trim() || null, providerEvent: v.providerEvent.trim() || null, macros: v.macros, active: v.active,
  };
}

export function validateTracker(values: TrackerFormValues, t: TFunction, providers: readonly TrackerProvider[]): Record<string, string> {
  const errors = schemaValidator<TrackerFormValues>(TrackerInput, t, { postbackUrl: 'validation.format' }, trackerBody)(values);
  const provider = providers.find((p) => p.id === values.accountProviderId);
  if (!errors.postbackUrl && !values.postbackUrl.trim() && provider && !provider.eventPostbackUrl) errors.postbackUrl = t('trackers.urlHintNoProvider');
  return errors;
}

export const trackerFailure = (error: unknown, t: TFunction) => splitFailure(error, t, FIELDS);
