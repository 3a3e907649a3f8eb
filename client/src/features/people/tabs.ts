/** The tabs of a person's profile, as they appear in the URL (`?tab=`). */
export const PROFILE_TABS = ['overview', 'timeline', 'devices', 'messages', 'journeys'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];
