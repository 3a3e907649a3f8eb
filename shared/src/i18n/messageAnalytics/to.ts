/** Tongan texts of message analytics: none commissioned yet; every key falls back to English (see ../to.ts). */
export const messageAnalyticsTo = {};
