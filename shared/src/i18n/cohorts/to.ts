/** Tongan texts of /behavior/cohort: none commissioned yet; every key falls back to English (see ../to.ts). */
export const cohortsTo = {};
