import { imageInputField, imageToolLimits } from '../shared/image-meta.js';
import type { ToolMeta } from '../types.js';

const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'image-rotate-flip',
  group: 'image',
  name: 'Image rotate and flip',
  description: 'Turn an image by 90, 180 or 270 degrees clockwise and/or mirror it. The EXIF orientation is applied first, so the result looks the same in every viewer; JPEG and WebP are re-encoded (not lossless).',
  keywords: ['rotate', 'flip', 'mirror', 'turn', 'image', 'orientation', 'upside down'],
  api: true,
  browser: 'browser',
  server: 'server',
  batchField: 'image',
  limits: imageToolLimits,
  inputSchema: {
    type: 'object',
    properties: {
      image: imageInputField,
      rotate: { type: 'integer', enum: [0, 90, 180, 270], default: 90, description: 'Degrees clockwise.' },
      flip: { type: 'string', enum: ['none', 'horizontal', 'vertical', 'both'], default: 'none', description: 'Mirror after turning: horizontal swaps left and right, vertical swaps top and bottom.' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'A quarter turn clockwise',
      input: { image: twoColourPng, rotate: 90 },
      outputMatches: { width: 6, height: 8, format: 'png', file: { name: 'rotated-90-6x8.png', type: 'image/png' } },
    },
    {
      title: 'Mirror left to right',
      input: { image: twoColourPng, rotate: 0, flip: 'horizontal' },
      outputMatches: { width: 8, height: 6, format: 'png', file: { name: 'flipped-8x6.png', type: 'image/png' } },
    },
    {
      title: 'Upside down',
      input: { image: twoColourPng, rotate: 180 },
      outputMatches: { width: 8, height: 6, format: 'png' },
    },
  ],
};
