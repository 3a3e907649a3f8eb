/** Tongan texts of the A/B analysis and the histograms: none commissioned yet; every key falls back to English (see ../to.ts). */
export const abAnalysisTo = {};
