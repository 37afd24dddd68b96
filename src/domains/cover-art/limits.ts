/** The spec's cover-art limits. */
export const COVER_ART_PROMPT = { min: 1, max: 1500 } as const;
/** Per account and shared by every surface (REST, agent, GraphQL, any in-app generator). */
export const COVER_ART_RATE = { standard: 5, insider: 15, windowSeconds: 120 } as const;
/** Longest file name a caller may ask for (the stored name is cut to 80 characters plus a suffix). */
export const COVER_ART_FILE_NAME_MAX = 255;
