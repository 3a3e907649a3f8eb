/** Tongan texts of /acquisition/links and /acquisition/powlinks: none commissioned yet; every key falls back to English (see ../to.ts). */
export const linksTo = {};
