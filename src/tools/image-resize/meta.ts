import { imageInputField, imageToolLimits } from '../shared/image-meta.js';
import type { ToolMeta } from '../types.js';

const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'image-resize',
  group: 'image',
  name: 'Image resizer',
  description: 'Resize PNG, JPEG, WebP or GIF images to a width and/or height: fit inside the box, cover it (centred crop) or stretch. Small images are not enlarged unless you allow it.',
  keywords: ['resize', 'scale', 'image', 'thumbnail', 'dimensions', 'shrink', 'png', 'jpeg', 'webp'],
  api: true,
  browser: 'browser',
  server: 'server',
  batchField: 'image',
  limits: imageToolLimits,
  inputSchema: {
    type: 'object',
    properties: {
      image: imageInputField,
      width: { type: 'integer', minimum: 1, maximum: 10000, description: 'Width in pixels. With only a width, the height follows the aspect ratio.' },
      height: { type: 'integer', minimum: 1, maximum: 10000, description: 'Height in pixels. With only a height, the width follows the aspect ratio.' },
      fit: {
        type: 'string',
        enum: ['contain', 'cover', 'fill'],
        default: 'contain',
        description: 'With both sides: contain = fit inside, keeping the aspect ratio; cover = fill the box exactly, cropping the centre; fill = stretch to the box.',
      },
      allowUpscale: { type: 'boolean', default: false, description: 'Enlarge images smaller than the requested size (usually blurry).' },
      format: { type: 'string', enum: ['same', 'png', 'jpeg', 'webp'], default: 'same', description: 'Output format; "same" keeps the input format (GIF becomes PNG).' },
      quality: { type: 'integer', minimum: 1, maximum: 100, default: 90, description: 'JPEG and WebP quality (1–100).' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Half the width, keeping the aspect ratio',
      input: { image: twoColourPng, width: 4 },
      outputMatches: { width: 4, height: 3, format: 'png', inputBytes: 99, file: { name: 'resized-4x3.png', type: 'image/png' } },
    },
    {
      title: 'Square thumbnail (cover crops the centre)',
      input: { image: twoColourPng, width: 4, height: 4, fit: 'cover', format: 'jpeg', quality: 80 },
      outputMatches: { width: 4, height: 4, format: 'jpeg', file: { name: 'resized-4x4.jpg', type: 'image/jpeg' } },
    },
    {
      title: 'Not enlarged without allowUpscale',
      input: { image: twoColourPng, width: 16 },
      outputMatches: { width: 8, height: 6, format: 'png', warnings: ['The image (8 × 6) is smaller than the requested size, so it was not enlarged; set allowUpscale to enlarge it.'] },
    },
    {
      title: 'Stretch to an exact size',
      input: { image: twoColourPng, width: 16, height: 4, fit: 'fill', allowUpscale: true, format: 'webp' },
      outputMatches: { width: 16, height: 4, format: 'webp', file: { type: 'image/webp' } },
    },
  ],
};
