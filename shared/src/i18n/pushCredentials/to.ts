/** Tongan texts of the "Push notifications" card of /user/app: none commissioned yet; every key falls back to English (see ../to.ts). */
export const pushCredentialsTo = {};
