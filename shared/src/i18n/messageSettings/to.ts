/** Tongan texts of the message settings screens: none commissioned yet; every key falls back to English (see ../to.ts). */
export const messageSettingsTo = {};
