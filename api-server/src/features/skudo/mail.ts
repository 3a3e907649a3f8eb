/** The partner invitation mail, in the inviting user's language (en, es; `to` falls back to English). */
import type { Language } from '@gd/shared';

interface Params { name: string; account: string; code: string; link: string; expiresAt: Date }

const day = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');

const TEXTS: Partial<Record<Language, (p: Params) => { subject: string; text: string }>> & { en: (p: Params) => { subject: string; text: string } } = {
  en: (p) => ({
    subject: `${p.account} invites you to its Skudo offers`,
    text: `Hello ${p.name},\n\n${p.account} has added you as a partner of its Skudo offer marketplace. Sign in to see your offers, tracking URLs and clicks:\n\n${p.link}\n\nor open the Skudo sign-in page and type this one-time code:\n\n    ${p.code}\n\nThe code works once, until ${day(p.expiresAt)} UTC.\n`,
  }),
  es: (p) => ({
    subject: `${p.account} te invita a sus ofertas de Skudo`,
    text: `Hola ${p.name}:\n\n${p.account} te ha añadido como partner de su marketplace de ofertas Skudo. Entra para ver tus ofertas, URLs de seguimiento y clics:\n\n${p.link}\n\no abre la página de acceso de Skudo y escribe este código de un solo uso:\n\n    ${p.code}\n\nEl código sirve una vez, hasta el ${day(p.expiresAt)} UTC.\n`,
  }),
};

export function invitationMail(language: Language, params: Params): { subject: string; text: string } {
  return (TEXTS[language] ?? TEXTS.en)(params);
}
