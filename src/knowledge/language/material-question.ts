/**
 * Questions that ask what a thing is made of: "What are the espresso cups made of?", "Woraus ist
 * der Stiel?", "C'est en quoi ?". A product's record answers them with a field it names "Material:
 * porcelain", a word the question never uses; and "made" is an ordinary word that some other
 * record writes ("made for espresso"), so the product asked about looked as if it lacked what was
 * asked and the question was refused. Where the knowledge base uses the language's word for
 * material, the phrase that asks is read as that word before the question is analysed, as a
 * question that names the field would be ("What material are the cups?").
 *
 * Narrow on purpose: only phrases that ask for what a thing is made of, not "made in" (a country)
 * nor "made for" (a use), and only where the records use the word the phrase becomes.
 */

interface MaterialAsk {
  /** The phrase that asks, in a question as typed (any case). */
  phrase: RegExp;
  /** The words for material the phrase may become, the first the records use. */
  words: readonly string[];
}

const ASKS: Readonly<Record<string, MaterialAsk>> = {
  // "made of", "made from", "made out of"; "what's it made of", "is the handle made of wood".
  en: { phrase: /(?<![\p{L}\p{N}])made (?:out )?(?:of|from)(?![\p{L}\p{N}])/giu, words: ['material', 'materials'] },
  // "Woraus ist …?", "Aus was ist … gemacht?", "Aus welchem Stoff …?"; "aus welchem Material" names it already.
  de: { phrase: /(?<![\p{L}\p{N}])(?:woraus|aus was|aus welchem stoff)(?![\p{L}\p{N}])/giu, words: ['Material', 'Materialien'] },
  // "C'est en quoi ?", "En quoi est la théière ?", "faite en quoi", "en quelle matière"; not "En quoi
  // consiste l'abonnement ?" nor "En quoi est-ce différent ?" (in what way).
  fr: { phrase: /(?<![\p{L}\p{N}])en (?:quoi(?=\s+(?:est|sont)(?![\p{L}-])|\s*[?!.]*$)|quelle mati[èe]re(?![\p{L}\p{N}]))|(?<=(?<![\p{L}\p{N}])faite?s? )en quoi(?![\p{L}\p{N}])/giu, words: ['matière', 'matériau', 'matériaux'] },
};

/**
 * `question` with a phrase that asks what a thing is made of read as the word for material that
 * the knowledge base uses (`usedWord(word)` tells whether it does), in `language`; unchanged when
 * it asks no such thing or the records use none of the words.
 */
export function materialAsked(question: string, language: string, usedWord: (word: string) => boolean): string {
  const ask = ASKS[language];
  if (ask === undefined) return question;
  ask.phrase.lastIndex = 0;
  if (!ask.phrase.test(question)) return question;
  const word = ask.words.find(usedWord);
  if (word === undefined) return question;
  return question.replace(ask.phrase, word);
}
