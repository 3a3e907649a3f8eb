/** How a payout reads (pure apart from the `t` it is given): money per unit, or a share of the sale. */
import { localeFor, type Language } from '@gd/shared/language';
import type { SkudoPayoutModel } from '@gd/shared/skudo/model';
import type { TFunction } from '../../i18n/keys.ts';
import { formatMoney } from '../../ui/money.ts';

export function payoutText(t: TFunction, lang: Language, offer: { payoutModel: SkudoPayoutModel; payoutAmount: number; currency: string }): string {
  if (offer.payoutModel === 'cps') {
    return t('skudo.percentOfSale', { amount: offer.payoutAmount.toLocaleString(localeFor(lang), { maximumFractionDigits: 2 }) });
  }
  return `${formatMoney(lang, offer.payoutAmount, offer.currency)} · ${t(`skudo.payout.${offer.payoutModel}`)}`;
}

/** The payout in two parts, for a table cell: the amount (money, or a percentage) and the model's name. */
export function payoutParts(t: TFunction, lang: Language, offer: { payoutModel: SkudoPayoutModel; payoutAmount: number; currency: string }): { amount: string; model: string } {
  const amount = offer.payoutModel === 'cps'
    ? `${offer.payoutAmount.toLocaleString(localeFor(lang), { maximumFractionDigits: 2 })} %`
    : formatMoney(lang, offer.payoutAmount, offer.currency);
  return { amount, model: t(`skudo.payout.${offer.payoutModel}`) };
}

/** The colour of a status badge. */
export function statusColour(status: 'draft' | 'active' | 'paused' | 'ended' | 'suspended' | 'invited'): string {
  switch (status) {
    case 'active': return 'teal';
    case 'paused': return 'yellow';
    case 'draft': return 'gray';
    case 'ended': return 'dark';
    case 'suspended': return 'red';
    case 'invited': return 'indigo';
    default: {
      const never: never = status;
      return never;
    }
  }
}
