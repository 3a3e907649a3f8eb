/** Tongan texts of /acquisition/skadnetwork: none commissioned yet; every key falls back to English (see ../to.ts). */
export const skanTo = {};
