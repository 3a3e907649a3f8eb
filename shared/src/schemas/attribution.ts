/**
 * Deferred deep links (issue 16): the SDK's first open asks for the deep link of the click that
 * brought the install, authenticated by the app key like ingestion. The API attributes the
 * device's pending installs at once (the attribution engine's rules, shared/src/acquisition/
 * attribution.ts) and hands the winning click's deep link and parameters exactly once per
 * install; every later call answers `deepLink: null`.
 */
import { z } from 'zod';
import { SdkDeviceId } from './sdkMessages.ts';

export const DeferredLinkRequest = z.object({
  /** The SDK's install id (the ingestion API's `device.id`). */
  device: SdkDeviceId,
}).strict();
export type DeferredLinkRequest = z.infer<typeof DeferredLinkRequest>;

export const DeferredLinkAnswer = {
  /** The deep link of the click the install is attributed to; null when none, or already handed over. */
  deepLink: z.string().nullable(),
  /** The click's tracking parameters (SPEC §3: the link's, then what the click added), with `gd_click` and `gd_campaign`. */
  params: z.record(z.string(), z.string()).nullable(),
};
export type DeferredLinkAnswer = { deepLink: string | null; params: Record<string, string> | null };
