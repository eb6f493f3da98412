/** Small statistics helpers for the evaluation. */

const MARKER_RE = /\s*\[\d+\]/gu;

/** An answer without its `[n]` citation markers, as the widget and the Playground send it back as a turn. */
export function withoutMarkers(text: string): string {
  return text.replace(MARKER_RE, '');
}

/** Lower-case, citation markers removed, whitespace collapsed: the "case/space-insensitive" comparison. */
export function normalizeAnswer(text: string): string {
  return withoutMarkers(text)
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export function containsAny(answer: string, golds: readonly string[]): boolean {
  const a = normalizeAnswer(answer);
  return golds.some((g) => a.includes(normalizeAnswer(g)));
}

export function rate(flags: readonly boolean[]): number {
  return flags.length === 0 ? 0 : flags.filter(Boolean).length / flags.length;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? 0;
}

/** Probability that a random positive scores above a random negative (ties count half). */
export function auroc(positives: readonly number[], negatives: readonly number[]): number {
  if (positives.length === 0 || negatives.length === 0) return 0.5;
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
