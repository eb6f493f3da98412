/** The answer caches store what JSON makes of a value (see the AnswerCache port). */
/** JSON text, or undefined for values with no JSON form (undefined, BigInt, cycles): those are simply not cached. */
export function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch {
    return undefined;
  }
}

/** The value and everything in it frozen: a cached answer is shared by every request that hits it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
