/** Timestamps are stored as ISO-8601 UTC strings, which sort as text in time order. */
export const now = (): string => new Date().toISOString();
