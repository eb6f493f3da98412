/** The text-to-speech input, checked the same way wherever it arrives. */
import { ToolInputError } from '../types.js';

export interface TextToSpeechInput {
  text: string;
  rate?: number;
  pitch?: number;
  voice?: string;
}

export interface TextToSpeechOutput {
  result: string;
  voice: string;
  lang: string;
  characters: number;
  /** The text is spoken sentence by sentence: Chrome cuts single long utterances off after about 15 seconds. */
  utterances: number;
}

export const maxSpeechCharacters = 20_000;

export function checkSpeechInput(input: TextToSpeechInput): string {
  const text = input.text.trim();
  if (text === '') throw new ToolInputError('There is no text to speak.', { field: 'text' });
  if (text.length > maxSpeechCharacters) {
    throw new ToolInputError(`The text has ${text.length} characters; at most ${maxSpeechCharacters} can be spoken at once.`, { field: 'text' });
  }
  return text;
}
