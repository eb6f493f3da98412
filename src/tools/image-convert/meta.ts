import { imageInputField, imageToolLimits } from '../shared/image-meta.js';
import type { ToolMeta } from '../types.js';

const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';
/** 8 × 6, the right half transparent. */
const halfTransparentPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAYAAAD+Bd/7AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGElEQVQI12O4o6HxHxnLRZ1gQMYMQ0EBAGYiUgkuXTMLAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'image-convert',
  group: 'image',
  name: 'Image format converter',
  description: 'Convert PNG, JPEG, WebP or GIF images to PNG, JPEG or WebP. Transparent areas become white in JPEG; only the first frame of an animated GIF is kept.',
  keywords: ['convert', 'image', 'png', 'jpeg', 'jpg', 'webp', 'gif', 'format'],
  api: true,
  browser: 'browser',
  server: 'server',
  batchField: 'image',
  limits: imageToolLimits,
  inputSchema: {
    type: 'object',
    properties: {
      image: imageInputField,
      to: { type: 'string', enum: ['png', 'jpeg', 'webp'], default: 'webp', description: 'The format to write.' },
      quality: { type: 'integer', minimum: 1, maximum: 100, default: 90, description: 'JPEG and WebP quality (1–100); PNG is lossless.' },
    },
    required: ['image', 'to'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'PNG to WebP',
      input: { image: twoColourPng, to: 'webp', quality: 90 },
      outputMatches: { width: 8, height: 6, format: 'webp', inputBytes: 99, file: { name: 'converted-8x6.webp', type: 'image/webp' } },
    },
    {
      title: 'Transparent PNG to JPEG (white background)',
      input: { image: halfTransparentPng, to: 'jpeg', quality: 85 },
      outputMatches: { width: 8, height: 6, format: 'jpeg', file: { name: 'converted-8x6.jpg', type: 'image/jpeg' } },
    },
    {
      title: 'Re-encode PNG to PNG',
      input: { image: twoColourPng, to: 'png' },
      outputMatches: { width: 8, height: 6, format: 'png', warnings: ['The image was already PNG; it was re-encoded.'] },
    },
  ],
};
