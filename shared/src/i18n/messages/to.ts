/** Tongan texts of messages: none commissioned yet; every key falls back to English (see ../to.ts). */
export const messagesTo = {};
