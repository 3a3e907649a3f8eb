/** The SDK's public types. Payload types come from the ingestion contract in @gd/shared (types only). */
import type { DeviceContext, InteractionChannel, InteractionKind, ProfileFields, ProfileRequest } from '@gd/shared';
import type { InAppMessage, NativeAd } from '@gd/shared/schemas/sdkMessages';
import type { KeyValueStorage } from './storage.ts';
import type { WebPushOptions, WebPushResult } from './webPush.ts';
import type { DeferredDeepLink } from './deferred.ts';

export type { DeferredDeepLink };

export type { DeviceContext, InteractionChannel, InteractionKind, ProfileFields };
export type { InAppMessage, NativeAd };
export type TagValues = NonNullable<ProfileRequest['tags']>;
export type PropertyValue = string | number | boolean | null | (string | number)[];
export type Properties = Record<string, PropertyValue>;

export interface TrackerOptions {
  /** The app's ingestion key (Settings → Apps). */
  appKey: string;
  /** Base URL of the API, e.g. `https://growthdeck.example.com/api`. */
  endpoint: string;
  /** Defaults to localStorage in a browser, else to memory (see storage.ts). */
  storage?: KeyValueStorage;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Send as soon as this many items are queued (default 20). */
  flushAt?: number;
  /** Send what is queued this often (default 5000 ms). */
  flushIntervalMs?: number;
  /** Items per request (default 100, at most 500, the API's limit). */
  maxBatch?: number;
  /** Items kept while the API cannot be reached; the oldest are dropped beyond it (default 10,000). */
  maxQueue?: number;
  /** Device fields sent with every request (app version, push token, advertising ids...). */
  deviceContext?: Omit<Partial<DeviceContext>, 'id'>;
  /** Built-in events: gd_install on the first run, gd_start_session / gd_end_session (default true). */
  autoTrack?: boolean;
  /** Inactivity that ends a session (default 30 minutes). */
  sessionTimeoutMs?: number;
  /** Retry timing: full jitter between 0 and min(cap, base × 2^(n−1)) (defaults 1 s and 5 min). */
  retryBaseMs?: number;
  retryCapMs?: number;
  /** The clock (epoch ms) for event times and the session rule; replace it to replay history. */
  now?: () => number;
  /** Items the API refused (they are dropped: resending cannot help). Default: console.warn. */
  onRejected?: (rejected: Rejection[]) => void;
  /** The API refused a whole request (e.g. an unknown app key): sending stops, the queue is kept. */
  onError?: (error: TrackerError) => void;
  /** Show the in-app messages on offer as the tracker starts (browsers; default false): see `inApp()`. */
  inApp?: boolean;
}

export interface Rejection {
  kind: 'event' | 'interaction' | 'identify' | 'profile' | 'tag';
  /** The item's id (null when it was refused before getting one); for a tag, its name. */
  id: string | null;
  /** The event's name, when it is an event. */
  name?: string;
  /** Catalogue code (10001 invalid, 10015 event collision). */
  code: number;
  reason: string;
}

export interface TrackerError {
  status: number;
  code: number | null;
  message: string;
}

export interface EventExtras {
  revenue?: number;
  /** ISO 4217, e.g. EUR. */
  currency?: string;
  source?: string;
  campaign?: string;
  /** When it happened (default: now). */
  time?: Date | string | number;
}

export interface InteractionRefs {
  campaignId?: string;
  messageId?: string;
  /** The message's variant (what the in-app and native ad answers give). */
  variantId?: string;
  journeyId?: string;
  time?: Date | string | number;
}

export interface Tracker {
  /** The install id, stable for the life of the storage. */
  readonly deviceId: string;
  /** The current session id (null when automatic tracking is off or the session ended). */
  readonly sessionId: string | null;
  /** Items waiting to be sent. */
  readonly queued: number;
  /** Items dropped because the queue was full. */
  readonly dropped: number;
  /** Queues an event; answers its id, or null when it was refused locally (see onRejected). */
  track(name: string, properties?: Properties, extras?: EventExtras): string | null;
  /** The screen event (e_screen_name) with the screen's name in its `screen` property. */
  screen(name: string, properties?: Properties): string | null;
  /** A purchase: gd_transaction with its revenue. */
  transaction(revenue: number, currency: string, properties?: Properties): string | null;
  /** Ties this device to the app's customer id (merging the anonymous person), optionally setting profile fields. */
  identify(customerId: string, profile?: ProfileFields): void;
  /** Updates the device's person: profile fields and tag values (null removes). */
  setProfile(profile?: ProfileFields, tags?: TagValues): void;
  /** A message interaction (impression, click, open, dismissed_click) on a channel. */
  interaction(channel: InteractionChannel, kind: InteractionKind, refs?: InteractionRefs): string | null;
  /**
   * Web push: asks for the notification permission at once, then loads growthdeck-webpush.js,
   * registers the service worker, waits for it to be active, subscribes with the app's VAPID key
   * and sends the subscription (push.ts, webPush.ts).
   */
  enableWebPush(options: WebPushOptions): Promise<WebPushResult>;
  /** Ends this browser's web push subscription (the registration of the stored scope); answers whether the API had one. */
  disableWebPush(): Promise<boolean>;
  /**
   * The in-app messages on offer to this person now (what is queued is sent first, so a new
   * visitor is known); shown in the page unless `show` is false, one at a time, reporting
   * impressions, clicks and dismissals. Answers [] when nothing is on offer or the API is unreachable.
   */
  inApp(options?: { lang?: string; show?: boolean }): Promise<InAppMessage[]>;
  /** The native ads on offer for a placement (a template's name or id), filled through the template. */
  nativeAds(placement: string, options?: { lang?: string; limit?: number }): Promise<NativeAdView[]>;
  /**
   * Redeems a coupon; answers the API's answer (null: refused, e.g. past max_redeems, or
   * unreachable). Calling again after a null answer retries the same redemption (counted once): its
   * client id is kept per message and variant until an OK answer; or give your own `clientId`.
   */
  redeem(messageId: string, variantId?: string, clientId?: string): Promise<Record<string, unknown> | null>;
  /**
   * The deep link (and its tracking parameters) of the link whose click brought this install, once
   * per install: later calls answer null. Sends what is queued first (the install), then asks the
   * API, which attributes the install at once (deferred.ts).
   */
  deferredDeepLink(): Promise<DeferredDeepLink | null>;
  /** Sends what is queued; resolves when the queue is empty or a failed send left a retry scheduled. */
  flush(): Promise<void>;
  /** Stops timers and listeners, sends what it can, and writes the queue. */
  shutdown(): Promise<void>;
}

/** A native ad to render: its filled fields, and calls that report what the visitor did. */
export interface NativeAdView extends NativeAd {
  /** Where a tap leads: http(s) or an app scheme, else '' (nothing to open). */
  clickUrl: string;
  /** Report that the ad was shown (once per ad view: later calls report nothing). */
  impression(): void;
  /** Report a tap; answers where it leads (`clickUrl`) for the app to open, or null when it leads nowhere safe. */
  click(): string | null;
}
