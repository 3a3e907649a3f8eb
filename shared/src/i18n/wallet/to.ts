/** Tongan texts of /products/wallet: none commissioned yet; every key falls back to English (see ../to.ts). */
export const walletTo = {};
