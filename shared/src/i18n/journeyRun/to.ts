/** Tongan texts of a running journey: none commissioned yet; every key falls back to English (see ../to.ts). */
export const journeyRunTo = {};
