/**
 * A push notification as the send pipeline hands it to a provider client: what the message says,
 * to which device token, and the delivery options SPEC.md section 3 gives a message (`life`: how
 * long it stays deliverable; a collapse id so a newer one replaces an older one not yet shown).
 * Each client turns it into its provider's payload (apns.ts, fcm.ts).
 */
import type { PushResult } from './result.ts';

export interface PushNotification {
  /** The device token (APNs: hex; FCM: the registration token). */
  token: string;
  title?: string;
  body?: string;
  /** APNs sound name / Android sound. */
  sound?: string;
  /** APNs badge count. */
  badge?: number;
  imageUrl?: string;
  /** Custom key-value pairs for the app (strings, as FCM requires). */
  data?: Record<string, string>;
  /** `alert` shows something; `background` wakes the app silently. Default: alert when there is a title or body. */
  pushType?: 'alert' | 'background';
  /** Default high for alerts; background pushes are always normal (APNs refuses priority 10 for them). */
  priority?: 'high' | 'normal';
  /** Seconds the provider keeps trying to deliver (the message's `life`); 0 or absent: once, no storing. */
  lifeSeconds?: number;
  /** Notifications with the same collapse id replace each other on the device (APNs: at most 64 bytes). */
  collapseId?: string;
  /** A UUID identifying this notification at the provider (APNs apns-id); the outbox row's id fits. */
  id?: string;
}

/** What every provider client offers the send pipeline. */
export interface PushClient {
  readonly provider: 'apns' | 'fcm';
  send(notification: PushNotification): Promise<PushResult>;
  /** Closes the connection after the sends in flight. */
  close(): Promise<void>;
}

export const pushTypeOf = (n: PushNotification): 'alert' | 'background' =>
  n.pushType ?? (n.title !== undefined || n.body !== undefined ? 'alert' : 'background');

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
