/**
 * Tongan texts of /behavior/people: none commissioned yet, so every key falls back to English
 * (see ../to.ts). Translators fill this object.
 */
export const peopleTo = {};
