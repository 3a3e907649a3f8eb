/** Tongan texts of the home screen: none commissioned yet; every key falls back to English (see ../to.ts). */
export const homeTo = {};
