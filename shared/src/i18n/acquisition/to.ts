/** Tongan texts of the apptracker screens: none commissioned yet; every key falls back to English (see ../to.ts). */
export const acquisitionTo = {};
