/** Tongan texts of the message what-if: none commissioned yet; every key falls back to English (see ../to.ts). */
export const messageWhatIfTo = {};
