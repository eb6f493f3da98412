/**
 * A value made on first use and shared after: `lazily(() => import('…'))` keeps a heavy module
 * (an agent protocol's SDK) out of start-up until a request needs it. A failed load is not
 * remembered, so the next call tries again.
 */
export function lazily<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}
