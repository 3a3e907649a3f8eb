/**
 * What an e-mail's recipient reads that the message's author did not write: the unsubscribe link
 * under the e-mail, its label in the text alternative, and the unsubscribe pages. In the language
 * the person got the message in (the outbox row's `language`, e.g. `es` or `es-MX`), mapped to a
 * product language as the interface maps a browser's (languageFromBrowser: Catalan, Galician and
 * Basque read Spanish; anything else English). `to` reads English, as in the interface, whose `to`
 * catalogue has no translations yet (shared/src/i18n/to.ts).
 */
import { languageFromBrowser } from '@gd/shared/language';

export interface RecipientTexts {
  lang: 'en' | 'es';
  unsubscribe: string;
  confirmTitle: string;
  /** The question above the button; `address` arrives escaped. */
  confirmQuestion: (address: string) => string;
  confirmButton: string;
  doneTitle: string;
  doneBody: string;
  invalidTitle: string;
  invalidBody: string;
}

const TEXTS: Record<RecipientTexts['lang'], RecipientTexts> = {
  en: {
    lang: 'en',
    unsubscribe: 'Unsubscribe',
    confirmTitle: 'Unsubscribe',
    confirmQuestion: (address) => `Stop e-mails like this one to <strong>${address}</strong>?`,
    confirmButton: 'Unsubscribe',
    doneTitle: 'You are unsubscribed',
    doneBody: 'You will get no more of these e-mails.',
    invalidTitle: 'Link not valid',
    invalidBody: 'This unsubscribe link is not valid.',
  },
  es: {
    lang: 'es',
    unsubscribe: 'Darse de baja',
    confirmTitle: 'Darse de baja',
    confirmQuestion: (address) => `¿Dejar de enviar correos como este a <strong>${address}</strong>?`,
    confirmButton: 'Darme de baja',
    doneTitle: 'Te has dado de baja',
    doneBody: 'No recibirás más correos como este.',
    invalidTitle: 'Enlace no válido',
    invalidBody: 'Este enlace para darse de baja no es válido.',
  },
};

export function recipientTexts(language: string | null | undefined): RecipientTexts {
  return languageFromBrowser(language ? [language] : []) === 'es' ? TEXTS.es : TEXTS.en;
}
