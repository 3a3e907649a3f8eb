/** Tongan texts of audience sharing: none commissioned yet; every key falls back to English (see ../to.ts). */
export const audienceShareTo = {};
