/** Tongan texts of /manage/tags: none commissioned yet; every key falls back to English (see ../to.ts). */
export const tagsTo = {};
