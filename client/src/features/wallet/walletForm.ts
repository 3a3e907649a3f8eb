/**
 * The wallet screen's pure helpers: the designer's values and what it sends, the preview's sample
 * values, reading a Google service-account key file, and the texts of the API's field issues.
 */
import type { TFunction } from '../../i18n/keys.ts';
import { WalletDesignInput, type WalletDesign } from '@gd/shared/schemas/wallet';
import { PLACEHOLDERS, defaultDesign, type IssuedValues, type PassDesign, type PassKind } from '@gd/shared/wallet/model';

export interface DesignFormValues { name: string; kind: PassKind; design: PassDesign }

export function initialDesignValues(existing: WalletDesign | undefined, organizationName: string): DesignFormValues {
  return existing ? { name: existing.name, kind: existing.kind, design: existing.design } : { name: '', kind: 'coupon', design: defaultDesign('coupon', organizationName) };
}

/** Switching kind on a new design starts from that kind's fields; an existing design keeps what was written. */
export function switchKind(values: DesignFormValues, kind: PassKind, isNew: boolean): DesignFormValues {
  if (!isNew) return { ...values, kind };
  const fresh = defaultDesign(kind, values.design.organizationName);
  return { ...values, kind, design: { ...fresh, backgroundColor: fresh.backgroundColor, logoText: values.design.logoText || fresh.logoText } };
}

/** The body of a save, parsed by the shared schema (trimmed). */
export const designBody = (values: DesignFormValues) => WalletDesignInput.parse(values);

/** The preview's stand-ins for a person's values. */
export function sampleValues(kind: PassKind): IssuedValues {
  return kind === 'coupon'
    ? { kind, barcode: 'K7QP4M2XW9TD', customerId: 'customer-1042', promoCode: 'SPRING15', maxRedeems: 3 }
    : { kind, barcode: '6275980012345678', customerId: 'customer-1042', cardNumber: '6275980012345678', memberName: 'Laura García' };
}

export const placeholderList = (kind: PassKind) => PLACEHOLDERS[kind].map((p) => `{{${p}}}`).join(' ');

/** The e-mail and key of a Google service-account key file, or null when the text is not one. */
export function readServiceAccount(text: string): { email: string; privateKeyPem: string } | null {
  try {
    const parsed = JSON.parse(text) as { client_email?: unknown; private_key?: unknown };
    return typeof parsed.client_email === 'string' && typeof parsed.private_key === 'string' ? { email: parsed.client_email, privateKeyPem: parsed.private_key } : null;
  } catch {
    return null;
  }
}

const SIGNING_ISSUES = ['invalid_certificate', 'certificate_expired', 'invalid_key', 'key_mismatch', 'key_required'] as const;
const REDEEM_ISSUES = ['not_found', 'not_a_coupon', 'voided', 'max_redeems_reached'] as const;

/** A signing settings field's refusal in the person's language (undefined: not one of ours). */
export function signingIssueText(t: TFunction, message: string): string | undefined {
  return (SIGNING_ISSUES as readonly string[]).includes(message) ? t(`wallet.signing.issue.${message as (typeof SIGNING_ISSUES)[number]}`) : undefined;
}

export function redeemIssueText(t: TFunction, message: string): string | undefined {
  return (REDEEM_ISSUES as readonly string[]).includes(message) ? t(`wallet.redeem.issue.${message as (typeof REDEEM_ISSUES)[number]}`) : undefined;
}
