/** Transactional e-mails in the user's language (en, es; `to` falls back to English). */
import type { Language } from '@gd/shared';

type Template = (p: { name: string; link: string; account?: string }) => { subject: string; text: string };

const templates: Record<'resetPassword' | 'invitation', Partial<Record<Language, Template>> & { en: Template }> = {
  resetPassword: {
    en: ({ name, link }) => ({
      subject: 'Reset your Growthdeck password',
      text: `Hello ${name},\n\nSomeone asked to reset the password of your Growthdeck user. Open this link within one hour to choose a new one:\n\n${link}\n\nIf it was not you, ignore this message; your password stays as it is.\n`,
    }),
    es: ({ name, link }) => ({
      subject: 'Restablece tu contraseña de Growthdeck',
      text: `Hola ${name}:\n\nAlguien ha pedido restablecer la contraseña de tu usuario de Growthdeck. Abre este enlace antes de una hora para elegir una nueva:\n\n${link}\n\nSi no has sido tú, ignora este mensaje; tu contraseña no cambia.\n`,
    }),
  },
  invitation: {
    en: ({ name, link, account }) => ({
      subject: `You have been invited to ${account ?? 'Growthdeck'}`,
      text: `Hello ${name},\n\nYou now have a user in the Growthdeck account ${account ?? ''}. Open this link within 7 days to sign in and choose your password:\n\n${link}\n`,
    }),
    es: ({ name, link, account }) => ({
      subject: `Te han invitado a ${account ?? 'Growthdeck'}`,
      text: `Hola ${name}:\n\nYa tienes un usuario en la cuenta de Growthdeck ${account ?? ''}. Abre este enlace antes de 7 días para entrar y elegir tu contraseña:\n\n${link}\n`,
    }),
  },
};

export function renderMail(kind: keyof typeof templates, language: Language, params: Parameters<Template>[0]) {
  const set = templates[kind];
  return (set[language] ?? set.en)(params);
}
