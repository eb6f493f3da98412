/**
 * Splits a message that asks two things ("What does it cost to ship to Germany, and who pays
 * returns?") into its questions, so each is answered from its own record with its own citation.
 * Conservative: it splits at question marks followed by another question (a statement after a
 * question stays with it, as its context), and at a conjunction only when a question or auxiliary
 * word follows it ("…, and can I…", "… und wie lange…", "… et combien…").
 */

const QUESTION_END_RE = /(?<=[?？])\s+(?=\S)/u;

// Words that open a question, in the languages detected most often.
const QUESTION_OPENERS =
  'what|what\'s|whats|how|when|where|who|which|why|can|could|do|does|did|is|are|will|would|should|may|wie|was|wann|wo|welche[rsmn]?|kann|koennt|könnt|gibt|muss|ist|sind|quel(?:le)?s?|comment|combien|quand|où|ou|est-ce|puis|pouvez|peut|faut|cuál|cuánto|cómo|cuándo|dónde|puedo|quale|quanto|come|quando|dove|posso|wat|hoe|wanneer|waar|kan';

// "and"/"und"/"et"/"y"/"e"/"en" (after an optional comma) followed by a word that opens a question.
const CONJUNCTION_RE = new RegExp(`(?:,|;)?\\s+(?:and|also|plus|und|sowie|et|y|e|en)\\s+(?=(?:${QUESTION_OPENERS})(?![\\p{L}\\p{N}]))`, 'giu');

// A sentence that asks: it ends with a question mark or opens with a question word ("how much is it").
const ASKS_RE = new RegExp(`(?:[?？]\\s*$)|^\\s*(?:(?:and|also|plus|und|et|y|e|en)\\s+)?(?:${QUESTION_OPENERS})(?![\\p{L}\\p{N}])`, 'iu');

/** At least this many letters on each side, or it is one question ("black and white?"). */
const MIN_PART_CHARS = 8;

/**
 * The message's sentences, a statement after a question kept with it: "Are you SOC 2 certified?
 * Our security team is asking." asks one thing, and the statement is its context, not a question
 * to answer on its own (it would be answered with whatever record shares a word with it).
 */
function questionSentences(question: string): string[] {
  const out: string[] = [];
  for (const sentence of question.split(QUESTION_END_RE)) {
    if (out.length > 0 && !ASKS_RE.test(sentence)) out[out.length - 1] = `${out[out.length - 1] as string} ${sentence}`;
    else out.push(sentence);
  }
  return out;
}

export function splitQuestion(question: string): string[] {
  const out: string[] = [];
  for (const sentence of questionSentences(question)) {
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
