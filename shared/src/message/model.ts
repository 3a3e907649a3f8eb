/**
 * Message draft content (SPEC.md section 3 "Communications"), a first version. Field names keep the
 * spec's snake_case spelling. Every field is always present (empty string, empty list or null when
 * unused), so the Yjs `content` map holds one key per field and concurrent edits of different
 * fields merge. Which fields a type uses is ours where the spec is silent (see `fieldsFor`).
 */
import { z } from 'zod';
import { LinkActionKind, LinkOpeningMode } from '../enums.ts';

export const CommunicationType = z.enum([
  'adball',
  'banner',
  'coupon',
  'default',
  'dynamictab',
  'email',
  'native_ad',
  'push',
  'startview',
  'strip',
  'test_ab',
  'blank',
]);
export type CommunicationType = z.infer<typeof CommunicationType>;

/** Message types (email and push) and in-app types are grouped; native ads and A/B tests stand apart. */
export const CommunicationGroup = z.enum(['message', 'inApp', 'nativeAd', 'abTest']);
export type CommunicationGroup = z.infer<typeof CommunicationGroup>;

export function communicationGroup(type: CommunicationType): CommunicationGroup {
  switch (type) {
    case 'email':
    case 'push':
      return 'message';
    case 'adball':
    case 'banner':
    case 'coupon':
    case 'default':
    case 'dynamictab':
    case 'startview':
    case 'strip':
    case 'blank':
      return 'inApp';
    case 'native_ad':
      return 'nativeAd';
    case 'test_ab':
      return 'abTest';
    default: {
      const never: never = type;
      throw new Error(`unknown communication type ${String(never)}`);
    }
  }
}

/** Placement options: top/bottom, top/middle/bottom, left/right. */
export const MessagePosition = z.enum(['top', 'middle', 'bottom', 'left', 'right']);
export type MessagePosition = z.infer<typeof MessagePosition>;

/** Which placement set a type offers (ours: banners top/bottom, strips top/middle/bottom, the ad ball left/right). */
export function positionsFor(type: CommunicationType): readonly MessagePosition[] {
  switch (type) {
    case 'banner':
      return ['top', 'bottom'];
    case 'strip':
      return ['top', 'middle', 'bottom'];
    case 'adball':
      return ['left', 'right'];
    default:
      return [];
  }
}

export const MessageButton = z.object({
  text: z.string().max(200),
  action: LinkActionKind,
  target_url: z.string().max(2000),
  open_in: LinkOpeningMode,
});
export type MessageButton = z.infer<typeof MessageButton>;

const Text = (max: number) => z.string().max(max);
const Seconds = z.number().int().min(0).max(10 * 366 * 86_400);

export const MessageContent = z.object({
  type: CommunicationType,
  title: Text(500),
  message: Text(5000),
  subject: Text(500),
  html_body: Text(500_000),
  image_url: Text(2000),
  target_url: Text(2000),
  buttons: z.array(MessageButton).max(10),
  position: MessagePosition.nullable(),
  /** Seconds an in-app message stays on screen (null: until dismissed). */
  shown_time: Seconds.nullable(),
  /** Seconds the message stays valid after sending (null: no expiry). */
  life: Seconds.nullable(),
  max_redeems: z.number().int().min(0).nullable(),
  promo_code: Text(200),
  sender_email: Text(254),
  sender_name: Text(200),
  /** Comma-separated addresses. */
  bcc: Text(2000),
  template_id: z.string().max(200).nullable(),
});
export type MessageContent = z.infer<typeof MessageContent>;
export type MessageField = keyof MessageContent;

export const MESSAGE_FIELDS = Object.keys(MessageContent.shape) as MessageField[];

export function createMessageContent(type: CommunicationType): MessageContent {
  const positions = positionsFor(type);
  return {
    type,
    title: '',
    message: '',
    subject: '',
    html_body: '',
    image_url: '',
    target_url: '',
    buttons: [],
    position: positions[0] ?? null,
    shown_time: null,
    life: null,
    max_redeems: null,
    promo_code: '',
    sender_email: '',
    sender_name: '',
    bcc: '',
    template_id: null,
  };
}

/** The fields an editor shows for a type (the rest keep their empty values). */
export function fieldsFor(type: CommunicationType): readonly MessageField[] {
  const common: MessageField[] = ['type'];
  switch (communicationGroup(type)) {
    case 'message':
      return type === 'email'
        ? [...common, 'subject', 'html_body', 'sender_email', 'sender_name', 'bcc', 'template_id', 'life']
        : [...common, 'title', 'message', 'image_url', 'target_url', 'buttons', 'life'];
    case 'inApp': {
      const f: MessageField[] = [...common, 'title', 'message', 'html_body', 'image_url', 'target_url', 'buttons', 'shown_time', 'life'];
      if (positionsFor(type).length) f.push('position');
      if (type === 'coupon') f.push('promo_code', 'max_redeems');
      return f;
    }
    case 'nativeAd':
      return [...common, 'title', 'message', 'image_url', 'target_url', 'template_id'];
    case 'abTest':
      return common;
  }
}
