/** Tongan texts of the acquisition reports: none commissioned yet; every key falls back to English (see ../to.ts). */
export const acqReportsTo = {};
