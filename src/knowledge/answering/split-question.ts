/**
 * Splits a message that asks two things ("What does it cost to ship to Germany, and who pays
 * returns?") into its questions, so each is answered from its own record with its own citation.
 * Conservative: it splits at question marks followed by more text, and at a conjunction only when
 * a question or auxiliary word follows it ("…, and can I…", "… und wie lange…", "… et combien…").
 */

const QUESTION_END_RE = /(?<=[?？])\s+(?=\S)/u;

// "and"/"und"/"et"/"y"/"e"/"en" (after an optional comma) followed by a word that opens a question.
const CONJUNCTION_RE =
  /(?:,|;)?\s+(?:and|also|plus|und|sowie|et|y|e|en)\s+(?=(?:what|what's|whats|how|when|where|who|which|why|can|could|do|does|did|is|are|will|would|should|may|wie|was|wann|wo|welche[rsmn]?|kann|koennt|könnt|gibt|muss|ist|sind|quel(?:le)?s?|comment|combien|quand|où|ou|est-ce|puis|pouvez|peut|faut|cuál|cuánto|cómo|cuándo|dónde|puedo|quale|quanto|come|quando|dove|posso|wat|hoe|wanneer|waar|kan)\b)/giu;

/** At least this many letters on each side, or it is one question ("black and white?"). */
const MIN_PART_CHARS = 8;

export function splitQuestion(question: string): string[] {
  const out: string[] = [];
  for (const sentence of question.split(QUESTION_END_RE)) {
    const pieces = sentence.split(CONJUNCTION_RE).map((p) => p.trim());
    let current = '';
    for (const piece of pieces) {
      if (current.replace(/\P{L}/gu, '').length >= MIN_PART_CHARS && piece.replace(/\P{L}/gu, '').length >= MIN_PART_CHARS) {
        out.push(current);
        current = piece;
      } else current = current ? `${current} ${piece}` : piece;
    }
    if (current.trim()) out.push(current.trim());
  }
  return out.length > 0 ? out : [question];
}
