/** Tongan texts of /manage/import-task and exports: none commissioned yet; every key falls back to English (see ../to.ts). */
export const importsTo = {};
