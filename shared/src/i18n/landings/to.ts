/** Tongan texts of /manage/landings: none commissioned yet; every key falls back to English (see ../to.ts). */
export const landingsTo = {};
