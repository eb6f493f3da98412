/**
 * Text to speech needs the browser's speechSynthesis (the voices installed on the person's device):
 * there is no server voice. This module only exists so the server never loads browser code; it
 * checks the input, then refuses.
 */
import { ToolInputError } from '../types.js';
import { checkSpeechInput, type TextToSpeechInput } from './speech-input.js';

export function run(input: TextToSpeechInput): never {
  checkSpeechInput(input);
  throw new ToolInputError('Text to speech runs only in the browser, with the voices installed on your device; it has no server version.');
}
