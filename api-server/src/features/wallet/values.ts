/** An issued pass's row as the values its design's placeholders and barcode take (shared wallet/model.ts `IssuedValues`). */
import type { IssuedValues } from '@gd/shared/wallet/model';
import { openSecrets, sealSecrets } from '../imports/secretBox.ts';
import type { PassRow } from './repository.ts';

/** The additional data binding a sealed security code to its pass. */
const sealedFor = (passId: string) => `wallet_pass/${passId}`;

export const sealSecurityCode = (serverSecret: string, passId: string, code: string) => sealSecrets(serverSecret, sealedFor(passId), { securityCode: code });

/** The pass's values; the security code only when `serverSecret` is given (the member's own pass, never the screen). */
export function issuedValues(pass: PassRow, serverSecret: string | null): IssuedValues {
  const securityCode = serverSecret && pass.secret ? openSecrets(serverSecret, sealedFor(pass.id), pass.secret)?.securityCode : undefined;
  return {
    kind: pass.kind, barcode: pass.barcode, customerId: pass.customer_id,
    promoCode: pass.promo_code ?? undefined, maxRedeems: pass.max_redeems,
    cardNumber: pass.card_number ?? undefined, memberName: pass.member_name ?? undefined, securityCode,
  };
}
