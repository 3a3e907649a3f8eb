/** Tongan texts of /main/dashboards and /main/executive: none commissioned yet; every key falls back to English (see ../to.ts). */
export const dashboardsTo = {};
