/** Tongan texts of the web push part of the "Push notifications" card: none commissioned yet; every key falls back to English (see ../to.ts). */
export const webPushTo = {};
