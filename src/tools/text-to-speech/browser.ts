/**
 * Speaks the text with the browser's speechSynthesis (main thread only, hence `runsIn: 'page'`),
 * using the voices installed on the device — nothing is sent anywhere. Resolves when speaking ends.
 */
import { sentences } from '../shared/ai-text.js';
import { type ToolContext, ToolInputError } from '../types.js';
import { checkSpeechInput, type TextToSpeechInput, type TextToSpeechOutput } from './speech-input.js';

/** Voices load asynchronously in Chrome: the first getVoices() is often empty until "voiceschanged". */
async function loadVoices(synth: SpeechSynthesis): Promise<SpeechSynthesisVoice[]> {
  const now = synth.getVoices();
  if (now.length) return now;
  return new Promise((resolve) => {
    const done = () => resolve(synth.getVoices());
    synth.addEventListener('voiceschanged', done, { once: true });
    setTimeout(done, 1500);
  });
}

function chooseVoice(voices: SpeechSynthesisVoice[], name: string | undefined): SpeechSynthesisVoice {
  if (voices.length === 0) {
    throw new ToolInputError('This browser has no speech voices installed, so it cannot speak. Install a voice in your system settings or try another browser.');
  }
  if (name) {
    const voice = voices.find((v) => v.name === name) ?? voices.find((v) => v.name.toLowerCase().includes(name.toLowerCase()));
    if (!voice) throw new ToolInputError(`No voice named "${name}". This browser has: ${voices.map((v) => v.name).slice(0, 20).join(', ')}.`, { field: 'voice' });
    return voice;
  }
  return voices.find((v) => v.default) ?? (voices[0] as SpeechSynthesisVoice);
}

function speak(synth: SpeechSynthesis, utterance: SpeechSynthesisUtterance): Promise<void> {
  return new Promise((resolve, reject) => {
    utterance.onend = () => resolve();
    utterance.onerror = (event) => {
      if (event.error === 'canceled' || event.error === 'interrupted') resolve();
      else reject(new ToolInputError(`The browser could not speak the text (${event.error}).`));
    };
    synth.speak(utterance);
  });
}

export async function run(input: TextToSpeechInput, context?: ToolContext): Promise<TextToSpeechOutput> {
  const text = checkSpeechInput(input);
  if (typeof speechSynthesis === 'undefined') throw new ToolInputError('This browser does not support speech synthesis.');
  const voice = chooseVoice(await loadVoices(speechSynthesis), input.voice);
  const parts = sentences(text).map((s) => s.text);
  speechSynthesis.cancel();
  for (const [i, part] of parts.entries()) {
    const utterance = new SpeechSynthesisUtterance(part);
    utterance.voice = voice;
    utterance.lang = voice.lang;
    utterance.rate = input.rate ?? 1;
    utterance.pitch = input.pitch ?? 1;
    await speak(speechSynthesis, utterance);
    context?.onProgress?.((i + 1) / parts.length, 'speaking');
  }
  return {
    result: `Spoke ${text.length} characters with ${voice.name}.`,
    voice: voice.name,
    lang: voice.lang,
    characters: text.length,
    utterances: parts.length,
  };
}
