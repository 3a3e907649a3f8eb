/** Tongan texts of /manage/integrations: none commissioned yet; every key falls back to English (see ../to.ts). */
export const integrationsTo = {};
