/** Tongan texts of skudo: none commissioned yet; every key falls back to English (see ../to.ts). */
export const skudoTo = {};
