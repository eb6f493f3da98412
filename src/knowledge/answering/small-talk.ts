/**
 * Small talk: a message that is only a greeting, thanks, a goodbye, an "ok", an announcement of a
 * question ("I have a question") or a question about the bot itself ("are you a bot?"). Searching
 * the records for it finds nothing to say, or worse, something unrelated ("bye" was answered with
 * the delivery costs), so it gets a short reply in its own language instead, citing nothing
 * (docs/decisions.md, Answers). A message with anything else in it ("Hi, do you ship to Canada?")
 * is not small talk and is answered from the records as usual.
 */
import { SMALL_TALK, SMALL_TALK_KINDS, type SmallTalkKind, type SmallTalkLanguage } from '../language/small-talk-phrases.js';
import { detectQuestionLanguage } from '../language/detect.js';
import type { Turn } from './types.js';

export type { SmallTalkKind };

export interface SmallTalk {
  kind: SmallTalkKind;
  /** ISO 639-1 code of the reply. */
  language: string;
  reply: string;
}

/** Longer messages are never small talk: the check stays cheap for every other question. */
const MAX_CHARS = 120;
const MAX_WORDS = 14;

const WORD_RE = /[\p{L}\p{N}]+/gu;
const PICTOGRAPH_RE = /\p{Extended_Pictographic}/u;
/** Emoji that are a whole message on their own. */
const EMOJI_KINDS: readonly (readonly [RegExp, SmallTalkKind])[] = [
  [/👋/u, 'greeting'],
  [/🙏/u, 'thanks'],
  [/[👍👌🙂😊😀😃😄✅]/u, 'ack'],
];

/** Words as compared: lower case, accents and apostrophes folded ("qui êtes-vous" → qui etes vous). */
export function smallTalkWords(text: string): string[] {
  const lower = text.toLowerCase();
  return (NON_ASCII_RE.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower).match(WORD_RE) ?? [];
}

const NON_ASCII_RE = /[^\x00-\x7f]/;

/** The words of the last bot name asked about: most processes answer for few bots in a row. */
let botNameWords: { name: string; words: ReadonlySet<string> } = { name: '', words: new Set() };
function botWordsOf(name: string): ReadonlySet<string> {
  if (botNameWords.name !== name) botNameWords = { name, words: new Set(smallTalkWords(name)) };
  return botNameWords.words;
}

interface CompiledLanguage {
  code: string;
  /** Words of the longest phrase. */
  longest: number;
  /** Phrase (words joined by one space) → its kind. */
  phrases: Map<string, SmallTalkKind>;
  fillers: Set<string>;
  replies: SmallTalkLanguage['replies'];
}

let compiled: CompiledLanguage[] | undefined;
/** Every word of every language's phrases and fillers: a message with any other word (but the bot's name) is not small talk. */
let vocabulary: Set<string> | undefined;

function languages(): CompiledLanguage[] {
  compiled ??= Object.entries(SMALL_TALK).map(([code, lang]) => {
    const phrases = new Map<string, SmallTalkKind>();
    let longest = 0;
    // A phrase listed under two kinds keeps the first (most telling) one.
    for (const kind of SMALL_TALK_KINDS) {
      for (const phrase of lang.phrases[kind]) {
        const words = smallTalkWords(phrase);
        longest = Math.max(longest, words.length);
        const key = words.join(' ');
        if (key && !phrases.has(key)) phrases.set(key, kind);
      }
    }
    return { code, longest, phrases, fillers: new Set(lang.fillers.flatMap(smallTalkWords)), replies: lang.replies };
  });
  vocabulary ??= new Set(compiled.flatMap((lang) => [...lang.fillers, ...[...lang.phrases.keys()].flatMap((key) => key.split(' '))]));
  return compiled;
}

interface Parse {
  /** Words covered by phrases (fillers count nothing). */
  score: number;
  kinds: Set<SmallTalkKind>;
}

/** The best reading of `words` as nothing but `lang`'s phrases and fillers, or undefined when some word is neither. */
function parse(words: readonly string[], lang: CompiledLanguage, extraFillers: ReadonlySet<string>): Parse | undefined {
  const best: (Parse | undefined)[] = new Array(words.length + 1);
  best[words.length] = { score: 0, kinds: new Set() };
  for (let i = words.length - 1; i >= 0; i--) {
    let choice: Parse | undefined;
    const word = words[i] as string;
    const rest = best[i + 1];
    if (rest && (lang.fillers.has(word) || extraFillers.has(word))) choice = rest;
    let key = '';
    for (let n = 1; n <= lang.longest && i + n <= words.length; n++) {
      key = n === 1 ? word : `${key} ${words[i + n - 1] as string}`;
      const kind = lang.phrases.get(key);
      const after = best[i + n];
      if (kind === undefined || !after) continue;
      // On a tie the longer phrase wins: "ciao ciao" is a goodbye, not two greetings.
      if (!choice || after.score + n >= choice.score) choice = { score: after.score + n, kinds: new Set([...after.kinds, kind]) };
    }
    best[i] = choice;
  }
  const whole = best[0];
  return whole && whole.score > 0 ? whole : undefined;
}

function reply(lang: CompiledLanguage, kind: SmallTalkKind, botName: string): SmallTalk {
  return { kind, language: lang.code, reply: lang.replies[kind].replace('{bot}', botName.trim() || 'an assistant') };
}

export interface SmallTalkOptions {
  botName: string;
  /** Earlier turns: a message that reads the same in several languages ("ok") is answered in the conversation's. */
  conversation?: readonly Turn[] | undefined;
  /** The knowledge base's language, for a message that fits several languages and has no conversation. */
  language?: string | undefined;
}

/** The reply to `message` when it is small talk, otherwise undefined. */
export function smallTalk(message: string, options: SmallTalkOptions): SmallTalk | undefined {
  if (message.length > MAX_CHARS) return undefined;
  const words = smallTalkWords(message);
  if (words.length > MAX_WORDS) return undefined;
  const all = languages();
  if (words.length === 0) {
    if (!PICTOGRAPH_RE.test(message)) return undefined;
    const kind = EMOJI_KINDS.find(([re]) => re.test(message))?.[1];
    return kind ? reply(languageFor(all, all, options), kind, options.botName) : undefined;
  }
  const botWords = botWordsOf(options.botName);
  // Most messages are questions: one word outside every list settles it before any parse.
  if (words.some((w) => !(vocabulary as Set<string>).has(w) && !botWords.has(w))) return undefined;
  let top: { lang: CompiledLanguage; parse: Parse }[] = [];
  for (const lang of all) {
    const p = parse(words, lang, botWords);
    if (!p) continue;
    if (top.length === 0 || p.score > (top[0] as { parse: Parse }).parse.score) top = [{ lang, parse: p }];
    else if (p.score === (top[0] as { parse: Parse }).parse.score) top.push({ lang, parse: p });
  }
  if (top.length === 0) return undefined;
  const lang = languageFor(top.map((t) => t.lang), all, options);
  const chosen = top.find((t) => t.lang === lang) as { lang: CompiledLanguage; parse: Parse };
  const kind = SMALL_TALK_KINDS.find((k) => chosen.parse.kinds.has(k)) as SmallTalkKind;
  return reply(lang, kind, options.botName);
}

/** Of the languages `candidates` that read the message equally well: the conversation's, else the knowledge base's, else the first. */
function languageFor(candidates: readonly CompiledLanguage[], all: readonly CompiledLanguage[], options: SmallTalkOptions): CompiledLanguage {
  if (candidates.length > 1) {
    const last = [...(options.conversation ?? [])].reverse().find((t) => t.role === 'user' && t.content.trim())?.content;
    const hints = [last ? detectQuestionLanguage(last, options.language) : undefined, options.language];
    for (const hint of hints) {
      const found = candidates.find((c) => c.code === hint);
      if (found) return found;
    }
  }
  return candidates[0] ?? (all[0] as CompiledLanguage);
}

/** Whether `message` is small talk in any language (for leaving it out of a follow-up's context). */
export function isSmallTalk(message: string): boolean {
  return smallTalk(message, { botName: '' }) !== undefined;
}
