/** A port on 127.0.0.1 that nothing listens on right now: see free-port.mjs. */
export declare function freePort(): Promise<number>;
