/**
 * What the SDK asks about messages (issue 13, "in-app and native ads through the SDK"),
 * authenticated by the app key (`X-App-Key`) like ingestion, CORS open to any origin:
 *
 * - `GET /sdk/v1/in-app?deviceId=…&lang=…`: the in-app messages on offer to the device's person
 *   now, with their content in the person's language, the variant they drew, where and how long to
 *   show them, and the app's web plugin look (for web pages). Eligibility (life, max_redeems,
 *   frequency caps, paused messages...) is decided by the API (sdkMessages/eligibility.ts).
 * - `GET /sdk/v1/native-ads?deviceId=…&placement=…`: the native ads on offer, filled through their
 *   template (`fillNativeAd`): a placement names the template the app's slot renders.
 * - `POST /sdk/v1/redeem`: a coupon's redemption, counted once per `clientId` and refused past the
 *   message's `max_redeems` for the person.
 *
 * Interactions (impression, click, dismissed_click) go through the ingestion batch with the
 * `messageId`, `variantId` and `campaignId` given here.
 */
import { z } from 'zod';
import { isStorableText } from '../formats.ts';
import { LinkActionKind, LinkOpeningMode } from '../enums.ts';
import { MessagePosition } from '../message/model.ts';
import { WebPluginPosition } from './webPlugin.ts';

const text = (max: number) => z.string().refine(isStorableText, { message: 'contains a NUL character or an unpaired surrogate' }).pipe(z.string().trim().min(1).max(max));

/** The SDK's install id (the ingestion API's `device.id`). */
export const SdkDeviceId = text(128).pipe(z.string().min(8));
/** A language tag as browsers and phones give it (`es`, `es-MX`, `pt_BR`). */
export const SdkLanguage = z.string().regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/).max(35);

/** The in-app types the SDK renders. */
export const InAppType = z.enum(['banner', 'strip', 'startview', 'adball', 'coupon', 'dynamictab', 'default', 'blank']);
export type InAppType = z.infer<typeof InAppType>;

export const InAppQuery = z.object({
  deviceId: SdkDeviceId,
  /** The person's language now (the device's); else the one their profile had when the message was played. */
  lang: SdkLanguage.optional(),
});
export type InAppQuery = z.infer<typeof InAppQuery>;

export const SdkButton = z.object({
  text: z.string(),
  action: LinkActionKind,
  target_url: z.string(),
  open_in: LinkOpeningMode,
});
export type SdkButton = z.infer<typeof SdkButton>;

export const InAppMessage = z.object({
  messageId: z.string(),
  campaignId: z.string(),
  variantId: z.string(),
  /** The run that offers it (a test run's messages are shown to test devices only). */
  test: z.boolean(),
  type: InAppType,
  language: z.string(),
  title: z.string(),
  message: z.string(),
  image_url: z.string(),
  target_url: z.string(),
  buttons: z.array(SdkButton),
  position: MessagePosition.nullable(),
  /** Seconds on screen (null: until dismissed). */
  shown_time: z.number().int().nullable(),
  promo_code: z.string(),
  /** The person's redemptions left (null: no limit). */
  redeemsLeft: z.number().int().nullable(),
  /** When it stops being offered (ISO 8601; null: while the message runs). */
  expiresAt: z.string().nullable(),
});
export type InAppMessage = z.infer<typeof InAppMessage>;

/** How a web page shows them (the app's web plugin settings, without who saved them). */
export const SdkPluginLook = z.object({
  position: WebPluginPosition,
  accentColor: z.string(),
  zIndex: z.number().int(),
  closeButton: z.boolean(),
});
export type SdkPluginLook = z.infer<typeof SdkPluginLook>;

export const InAppAnswer = {
  messages: z.array(InAppMessage),
  plugin: SdkPluginLook,
};

export const NativeAdsQuery = z.object({
  deviceId: SdkDeviceId,
  /** The template the slot renders: its id or its name (any case); `default` (or nothing): the app's default template. */
  placement: text(200).optional(),
  lang: SdkLanguage.optional(),
  limit: z.coerce.number().int().min(1).max(20).optional(),
});
export type NativeAdsQuery = z.infer<typeof NativeAdsQuery>;

export const NativeAd = z.object({
  messageId: z.string(),
  campaignId: z.string(),
  variantId: z.string(),
  test: z.boolean(),
  templateId: z.string(),
  templateName: z.string(),
  /** Template field key → its value (text, image or link address, colour). */
  fields: z.record(z.string(), z.string()),
  /** Where a tap on the ad leads (the template's first url field, else the message's target). */
  clickUrl: z.string(),
});
export type NativeAd = z.infer<typeof NativeAd>;

export const NativeAdsAnswer = { ads: z.array(NativeAd) };

export const RedeemRequest = z.object({
  device: z.object({ id: SdkDeviceId }),
  messageId: text(64),
  variantId: text(64).optional(),
  /** The SDK's id of this redemption: a resend counts once. */
  clientId: text(64),
});
export type RedeemRequest = z.infer<typeof RedeemRequest>;

export const RedeemAnswer = {
  /** false: this clientId was already counted (nothing new). */
  counted: z.boolean(),
  promoCode: z.string(),
  /** The person's redemptions of the message so far, and what is left (null: no limit). */
  redeems: z.number().int(),
  redeemsLeft: z.number().int().nullable(),
};

/** The reason a redemption is refused past max_redeems (in the KO answer's details). */
export const MAX_REDEEMS_REACHED = 'max_redeems_reached';

