/** Tongan texts of /manage/categories: none commissioned yet; every key falls back to English (see ../to.ts). */
export const categoriesTo = {};
