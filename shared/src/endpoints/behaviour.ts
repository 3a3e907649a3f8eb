/** Behaviour analytics endpoints: people, events, the event catalogue and explore. */
export const behaviourEndpoints = {
} as const;
