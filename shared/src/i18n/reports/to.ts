/** Tongan texts of /main/reports: none commissioned yet; every key falls back to English (see ../to.ts). */
export const reportsTo = {};
