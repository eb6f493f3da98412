/** The answer caches store what JSON makes of a value (see the AnswerCache port). */
/** JSON text, or undefined for values with no JSON form (undefined, BigInt, cycles): those are simply not cached. */
export function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch {
    return undefined;
  }
}
