/** Tongan texts of /manage/mail-providers: none commissioned yet; every key falls back to English (see ../to.ts). */
export const mailProvidersTo = {};
