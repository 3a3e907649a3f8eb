/** Tongan texts of segments and audiences: none commissioned yet; every key falls back to English (see ../to.ts). */
export const segmentsTo = {};
