/** The child side of a benchmark server: see serve-parent.mjs and the messages in children.ts. */
export declare function serveParent(url: string, stop: () => Promise<void>, info?: Record<string, unknown>): void;
