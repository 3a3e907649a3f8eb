/** Tongan texts of /behavior/funnels: none commissioned yet; every key falls back to English (see ../to.ts). */
export const funnelsTo = {};
