import { imageInputField, imageToolLimits } from '../shared/image-meta.js';
import type { ToolMeta } from '../types.js';

/** 8 × 6: left half #dc2828, right half #1e5ac8. */
const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'color-palette',
  group: 'image',
  name: 'Colour palette from an image',
  description: 'Find the dominant colours of an image (median cut over its pixels), with hex codes and how much of the image each covers. Transparent pixels are ignored.',
  keywords: ['color', 'colour', 'palette', 'dominant', 'extract', 'hex', 'scheme', 'image'],
  api: true,
  browser: 'browser',
  server: 'server',
  limits: imageToolLimits,
  inputSchema: {
    type: 'object',
    properties: {
      image: imageInputField,
      count: { type: 'integer', minimum: 2, maximum: 12, default: 6, description: 'How many colours at most (an image with fewer colours gives fewer).' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Two colours',
      input: { image: twoColourPng, count: 6 },
      output: {
        colors: [
          { hex: '#1e5ac8', rgb: [30, 90, 200], share: 0.5 },
          { hex: '#dc2828', rgb: [220, 40, 40], share: 0.5 },
        ],
        result: '#1e5ac8 50.0%\n#dc2828 50.0%',
        width: 8,
        height: 6,
        warnings: ['The image has only 2 distinct colours.'],
      },
    },
  ],
};
