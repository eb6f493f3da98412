import type { ToolMeta } from '../types.js';

const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'favicon-gen',
  group: 'image',
  name: 'Favicon generator (ICO + PNG icons)',
  description: 'Make favicon.ico (16, 32 and 48 pixels), an Apple touch icon (180) and web app icons (192, 512) from one image, with the HTML to link them. Non-square images are centred on a transparent square.',
  keywords: ['favicon', 'ico', 'icon', 'apple-touch-icon', 'manifest', 'pwa', 'website'],
  api: true,
  browser: 'browser',
  server: 'server',
  limits: { maxInputBytes: 30_000_000, timeoutMs: 20_000 },
  inputSchema: {
    type: 'object',
    properties: {
      image: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/*', description: 'A square image of at least 512 × 512 works best: PNG, JPEG, WebP or GIF.' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Icons from a small logo',
      input: { image: twoColourPng },
      outputMatches: {
        width: 8,
        height: 6,
        files: [
          { name: 'favicon.ico', type: 'image/x-icon' },
          { name: 'apple-touch-icon.png', type: 'image/png' },
          { name: 'icon-192.png', type: 'image/png' },
          { name: 'icon-512.png', type: 'image/png' },
        ],
        result:
          '<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48">\n<link rel="icon" type="image/png" sizes="192x192" href="/icon-192.png">\n<link rel="apple-touch-icon" sizes="180x180" href="/apple-touch-icon.png">\n<!-- icon-192.png and icon-512.png also belong in the "icons" of a web app manifest. -->',
        warnings: [
          'The image is 8 × 6, not square: it was centred on a transparent square.',
          'The image is smaller than 512 pixels, so the larger icons are enlarged and may look soft.',
        ],
      },
    },
  ],
};
