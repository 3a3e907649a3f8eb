/**
 * Transaction origins of this browser's writes. Undo tracks LOCAL_ORIGIN only, so a person never
 * undoes someone else's edit nor the automatic repair after a merge (REPAIR_ORIGIN).
 */
export const LOCAL_ORIGIN = { name: 'gd-local-edit' } as const;
export const REPAIR_ORIGIN = { name: 'gd-repair' } as const;
