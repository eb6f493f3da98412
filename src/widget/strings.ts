/** The widget's few UI strings, per language; answers themselves come in the knowledge base's language. */
export interface Strings {
  open: string;
  close: string;
  title: string;
  greeting: string;
  label: string;
  placeholder: string;
  send: string;
  sources: string;
  source: string;
  thinking: string;
  notAllowed: string;
  badKey: string;
  /** `{t}` is a relative time such as "in 42 seconds". */
  busy: string;
  daily: string;
  network: string;
  interrupted: string;
  failed: string;
  stopped: string;
  /** Above the records offered beside a refusal, each a question to ask with one click. */
  related: string;
  /** The accessible name of the owner's starter questions, offered before the first question. */
  starters: string;
  /** Under an answer from the records: the question, its two buttons, and what replaces them once one is pressed. */
  helpful: string;
  yes: string;
  no: string;
  thanks: string;
  /** After "No"; the owner's fallback message (a contact) follows when there is one. */
  notHelped: string;
}

const en: Strings = {
  open: 'Open chat',
  close: 'Close chat',
  title: 'Ask a question',
  greeting: 'Hi! Ask me anything about this site.',
  label: 'Your question',
  placeholder: 'Ask a question…',
  send: 'Send',
  sources: 'Sources',
  source: 'Source',
  thinking: 'Thinking…',
  notAllowed: 'This chat is not enabled on this website.',
  badKey: 'This chat is not set up correctly (its key is not valid).',
  busy: 'Too many questions right now. Please try again {t}.',
  daily: 'Today’s question limit has been reached. Please try again {t}.',
  network: 'The assistant can’t be reached. Check your connection and try again.',
  interrupted: 'The answer was interrupted. Please try again.',
  failed: 'Something went wrong. Please try again.',
  stopped: 'Stopped.',
  related: 'Maybe this helps:',
  starters: 'Suggested questions',
  helpful: 'Was this helpful?',
  yes: 'Yes',
  no: 'No',
  thanks: 'Thanks for your feedback.',
  notHelped: 'Thanks for telling us.',
};

const de: Strings = {
  open: 'Chat öffnen',
  close: 'Chat schließen',
  title: 'Stellen Sie eine Frage',
  greeting: 'Hallo! Fragen Sie mich alles zu dieser Website.',
  label: 'Ihre Frage',
  placeholder: 'Frage eingeben…',
  send: 'Senden',
  sources: 'Quellen',
  source: 'Quelle',
  thinking: 'Einen Moment…',
  notAllowed: 'Dieser Chat ist auf dieser Website nicht freigeschaltet.',
  badKey: 'Dieser Chat ist nicht richtig eingerichtet (ungültiger Schlüssel).',
  busy: 'Gerade kommen zu viele Fragen. Bitte versuchen Sie es {t} erneut.',
  daily: 'Das Tageslimit für Fragen ist erreicht. Bitte versuchen Sie es {t} erneut.',
  network: 'Der Assistent ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  interrupted: 'Die Antwort wurde unterbrochen. Bitte versuchen Sie es erneut.',
  failed: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
  stopped: 'Abgebrochen.',
  related: 'Vielleicht hilft das:',
  starters: 'Vorgeschlagene Fragen',
  helpful: 'War das hilfreich?',
  yes: 'Ja',
  no: 'Nein',
  thanks: 'Danke für Ihr Feedback.',
  notHelped: 'Danke für den Hinweis.',
};

const fr: Strings = {
  open: 'Ouvrir le chat',
  close: 'Fermer le chat',
  title: 'Posez une question',
  greeting: 'Bonjour ! Posez-moi vos questions sur ce site.',
  label: 'Votre question',
  placeholder: 'Posez une question…',
  send: 'Envoyer',
  sources: 'Sources',
  source: 'Source',
  thinking: 'Un instant…',
  notAllowed: 'Ce chat n’est pas activé sur ce site.',
  badKey: 'Ce chat n’est pas configuré correctement (clé non valide).',
  busy: 'Trop de questions en ce moment. Réessayez {t}.',
  daily: 'La limite de questions du jour est atteinte. Réessayez {t}.',
  network: 'L’assistant est injoignable. Vérifiez votre connexion et réessayez.',
  interrupted: 'La réponse a été interrompue. Réessayez.',
  failed: 'Une erreur est survenue. Réessayez.',
  stopped: 'Interrompu.',
  related: 'Ceci peut vous aider :',
  starters: 'Questions suggérées',
  helpful: 'Cette réponse vous a-t-elle aidé ?',
  yes: 'Oui',
  no: 'Non',
  thanks: 'Merci pour votre retour.',
  notHelped: 'Merci de nous l’avoir signalé.',
};

const table: Record<string, Strings> = { en, de, fr };

/** The first supported language among the candidates (BCP 47 tags such as `de-AT`), else English. */
export function pickLanguage(candidates: (string | null | undefined)[]): { lang: string; strings: Strings } {
  for (const tag of candidates) {
    const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
    if (primary && table[primary]) return { lang: primary, strings: table[primary] };
  }
  return { lang: 'en', strings: en };
}
