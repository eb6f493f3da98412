/**
 * Removes citation markers that do not resolve while tokens stream. Text is passed through at
 * once, except from a `[` or `【` (and the spaces before it) until what follows proves not to be
 * a marker; the held text is then cleaned by removeDanglingCitations and released.
 *
 * Invariant: the text already released never ends in something that could still grow into a
 * marker, and never contains a marker that points at no source. The filter works character by
 * character, so its output does not depend on how the stream was chunked.
 */
import { MAX_MARKER_LENGTH, removeDanglingCitations } from './citations.js';

const OPENERS = '[【';
const CLOSERS = ']】';
/** Characters that may appear between a marker's brackets. */
const INSIDE = /[\d \t,，;\-–]/;
/** Text ending in an opener followed only by characters that may be inside a marker. */
const OPEN_MARKER_AT_END = /[[【][\d \t,，;\-–]*$/;

export class StreamingCitationFilter {
  private held = '';

  constructor(private readonly sourceCount: number) {}

  /** Text safe to emit now. */
  push(chunk: string): string {
    let out = '';
    for (const ch of chunk) out += this.accept(ch);
    return out;
  }

  /** Whatever is still held, at the end of the stream. */
  flush(): string {
    const text = removeDanglingCitations(this.held, this.sourceCount);
    this.held = '';
    return text;
  }

  private accept(ch: string): string {
    const isOpener = OPENERS.includes(ch);
    const isSpace = ch === ' ' || ch === '\t';
    if (!this.held) {
      if (isOpener || isSpace) this.held = ch;
      return isOpener || isSpace ? '' : ch;
    }
    if (!/[[【]/.test(this.held)) {
      // Only spaces so far: held too, so a removed marker takes its space with it ("free [7]." → "free.").
      if (isOpener || (isSpace && this.held.length < 8)) {
        this.held += ch;
        return '';
      }
      const spaces = this.held;
      this.held = '';
      return spaces + this.accept(ch);
    }
    this.held += ch;
    if (CLOSERS.includes(ch)) return this.settle();
    if (isOpener || INSIDE.test(ch)) return this.held.length > MAX_MARKER_LENGTH ? this.trim() : '';
    // Anything else ends every marker that could have started in the held text.
    return this.flush();
  }

  /**
   * A bracket closed: clean the held text. Removing an inner marker can leave an opener that
   * is still waiting for its own close ("【9 [0]" → "【9"), which stays held.
   */
  private settle(): string {
    const cleaned = removeDanglingCitations(this.held, this.sourceCount);
    if (OPEN_MARKER_AT_END.test(cleaned)) {
      this.held = cleaned;
      return this.held.length > MAX_MARKER_LENGTH ? this.trim() : '';
    }
    this.held = '';
    return cleaned;
  }

  /** Held text longer than any marker: only its last opener can still start one. */
  private trim(): string {
    const cleaned = removeDanglingCitations(this.held, this.sourceCount);
    const open = Math.max(cleaned.lastIndexOf('['), cleaned.lastIndexOf('【'));
    if (open > 0 && cleaned.length - open <= MAX_MARKER_LENGTH && OPEN_MARKER_AT_END.test(cleaned.slice(open))) {
      this.held = cleaned.slice(open);
      return cleaned.slice(0, open);
    }
    this.held = '';
    return cleaned;
  }
}
