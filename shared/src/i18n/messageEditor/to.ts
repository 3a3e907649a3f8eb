/** Tongan texts of the message editor: none commissioned yet; every key falls back to English (see ../to.ts). */
export const messageEditorTo = {};
