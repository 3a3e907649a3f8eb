/** Tongan texts of /communication/rules: none commissioned yet; every key falls back to English (see ../to.ts). */
export const rulesTo = {};
