/** Tongan texts of /acquisition/trackers: none commissioned yet; every key falls back to English (see ../to.ts). */
export const trackersTo = {};
