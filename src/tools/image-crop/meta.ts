import { imageInputField, imageToolLimits } from '../shared/image-meta.js';
import type { ToolMeta } from '../types.js';

const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'image-crop',
  group: 'image',
  name: 'Image cropper',
  description: 'Cut a rectangle out of a PNG, JPEG, WebP or GIF image, in pixels from the top-left corner of the upright image. A box that reaches past the edge is reduced to fit.',
  keywords: ['crop', 'cut', 'trim', 'image', 'rectangle', 'region'],
  api: true,
  browser: 'browser',
  server: 'server',
  limits: imageToolLimits,
  inputSchema: {
    type: 'object',
    properties: {
      image: imageInputField,
      x: { type: 'integer', minimum: 0, default: 0, description: 'Left edge of the box, in pixels from the left.' },
      y: { type: 'integer', minimum: 0, default: 0, description: 'Top edge of the box, in pixels from the top.' },
      width: { type: 'integer', minimum: 1, maximum: 100000, description: 'Width of the box in pixels.' },
      height: { type: 'integer', minimum: 1, maximum: 100000, description: 'Height of the box in pixels.' },
    },
    required: ['image', 'width', 'height'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'The left half',
      input: { image: twoColourPng, x: 0, y: 0, width: 4, height: 6 },
      outputMatches: { width: 4, height: 6, format: 'png', file: { name: 'cropped-4x6.png', type: 'image/png' } },
    },
    {
      title: 'A box past the edge is reduced',
      input: { image: twoColourPng, x: 5, y: 2, width: 10, height: 10 },
      outputMatches: {
        width: 3,
        height: 4,
        format: 'png',
        warnings: ['The crop box 10 × 10 at (5, 2) reaches past the 8 × 6 image; it was reduced to 3 × 4.'],
      },
    },
  ],
};
