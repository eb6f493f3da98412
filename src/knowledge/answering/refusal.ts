/**
 * What a bot says when its records do not answer: the owner's own message when they set one
 * (e.g. "Ask us at help@shop.example"), otherwise a plain sentence in the question's language.
 */
import { NOT_FOUND_ANSWER } from './types.js';

/** Default refusals by ISO 639-1 code; English for any other language. */
const DEFAULT_REFUSALS: Readonly<Record<string, string>> = {
  en: NOT_FOUND_ANSWER,
  de: 'Dazu habe ich in der Wissensdatenbank nichts gefunden.',
  fr: "Je n'ai rien trouvé à ce sujet dans la base de connaissances.",
  es: 'No he encontrado esto en la base de conocimientos.',
  it: 'Non ho trovato questa informazione nella base di conoscenza.',
  nl: 'Ik kon dit niet vinden in de kennisbank.',
  pt: 'Não encontrei isto na base de conhecimento.',
};

/** The refusal for a question in `language` (ISO 639-1, or undefined when unknown). */
export function refusalText(language: string | undefined, fallbackMessage?: string | null): string {
  const own = fallbackMessage?.trim();
  if (own) return own;
  return (language !== undefined ? DEFAULT_REFUSALS[language] : undefined) ?? NOT_FOUND_ANSWER;
}
