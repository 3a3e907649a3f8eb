/** Tongan texts of the web plugin screen: none commissioned yet; every key falls back to English (see ../to.ts). */
export const webPluginTo = {};
