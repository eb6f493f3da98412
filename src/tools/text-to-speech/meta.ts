import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'text-to-speech',
  group: 'ai',
  name: 'Read text aloud (browser voices)',
  description:
    'Speak a text aloud with the voices installed in your browser or operating system, at the rate and pitch you choose. Runs only in the browser; no audio file is made and nothing is uploaded.',
  keywords: ['text to speech', 'tts', 'read aloud', 'speech synthesis', 'voice', 'speak'],
  api: false,
  browser: 'browser',
  runsIn: 'page',
  limits: { maxInputBytes: 100_000, timeoutMs: 600_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: 20_000, description: 'The text to read aloud.' },
      rate: { type: 'number', minimum: 0.5, maximum: 2, default: 1, description: 'Speaking speed: 1 is normal, 2 twice as fast.' },
      pitch: { type: 'number', minimum: 0, maximum: 2, default: 1, description: 'Voice pitch: 1 is normal.' },
      voice: { type: 'string', 'x-ui': 'line', description: 'Name (or part of the name) of an installed voice; the browser’s default when empty.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Say hello',
      input: { text: 'Hello! This sentence is read aloud by your browser.' },
      outputMatches: { characters: 51, utterances: 2 },
    },
    {
      title: 'Slow and low',
      input: { text: 'Slowly, please.', rate: 0.6, pitch: 0.8 },
      outputMatches: { characters: 15, utterances: 1 },
    },
  ],
};
