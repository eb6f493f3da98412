import { imageInputField, imageToolLimits } from '../shared/image-meta.js';
import type { ToolMeta } from '../types.js';

/** 16 × 12 random pixels: PNG cannot compress noise, lossy formats can. */
const noisePng =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAACXBIWXMAAAPoAAAD6AG1e1JrAAACV0lEQVQozwFMArP9ANwE9Xn4KBoLh+ylO56aOeu+z4YHQDWc2cAimHWq3uwbQ69Ak4rYctbPzNJolVygNwBsynAljofuP4fYG+o9Alu0pOl659Jc5YyBhanrbmTyW3gjzHQABdDlDxL/wC54aRUAW9MkYj+1CZMxIgP0pjAL/lkRJUeswqqntw9Vuomk0MMDeu6JUbDsQ5KiDrCCLW9mADKGGq1RvWbvJEVkjyME6u5kwJTPje7uXvxKYiEzaozgz/B8rHO3C9PJHh1H9n7GcgB86ZsyRMVnRNs/h3+VDGsus21UkXWiE/zkHDFm9PS9JNvVUsirmFVBmSCl8IViN/4A4UNfwUaQ2Mi7T0B5XttGPghzNV7u3LzlUyQ2TwOxBermXUj70oD6vpf02tDdBCizAEcnluPqVQcwweMMgVJPCM2ue8TZymdApTpOuY4TiN8QBnlSosv1uhmliWh7A2wo8ABKoRem5P9gLJyj2G+hN8VRT/f2Q2mtZ+KWxYwjfW3DPIRJFmnzRNwy7aqwYX4/9bIAu6KJECOD/vUjp+K9LnfI8gQzC+nrOj0QeLHs9Z/Mns6GDQOA4WViUkuHcFce+akaAD5OvBwxeVtNJ+w1MGTeKq40t0UqfOdkNe9tw3d9+WBy8fLeU2i7iJzJuMM1tQPQegBcmYDiWDVqMb84O/htBDMLVrGQVZdM9E0AcdkCvVeOP3DAQEo5kHoZ3rjOIddV+woATQc0kMi6BWf+6nISDgTgNMhN9TlfkiFFDKP9u77dUSgjs89Vp/PFjUd0Pc696deWrwoj5CjWqIgAAAAASUVORK5CYII=';
const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'image-compress',
  group: 'image',
  name: 'Image compressor (lossy JPEG/WebP re-encode)',
  description:
    'Re-encode an image as JPEG or WebP at a chosen quality, optionally scaled down, and see the bytes saved. If the result is not smaller, the original is returned unchanged. Metadata (EXIF, GPS) is removed.',
  keywords: ['compress', 'optimize', 'shrink', 'image', 'jpeg', 'webp', 'quality', 'file size', 'reduce'],
  api: true,
  browser: 'browser',
  server: 'server',
  batchField: 'image',
  limits: imageToolLimits,
  inputSchema: {
    type: 'object',
    properties: {
      image: imageInputField,
      format: { type: 'string', enum: ['webp', 'jpeg'], default: 'webp', description: 'WebP is usually smaller; JPEG opens everywhere. Transparent areas become white in JPEG.' },
      quality: { type: 'integer', minimum: 1, maximum: 100, default: 75, description: 'Lower is smaller with more visible artefacts; 60–80 suits photos.' },
      maxDimension: { type: 'integer', minimum: 1, maximum: 10000, description: 'Scale down so neither side exceeds this many pixels (never enlarges).' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Noisy PNG to WebP',
      input: { image: noisePng, format: 'webp', quality: 60 },
      outputMatches: { width: 16, height: 12, format: 'webp', inputBytes: 677, keptOriginal: false, file: { name: 'compressed-16x12.webp', type: 'image/webp' } },
    },
    {
      title: 'Scaled down to at most 8 pixels a side, as JPEG',
      input: { image: noisePng, format: 'jpeg', quality: 70, maxDimension: 8 },
      outputMatches: { width: 8, height: 6, format: 'jpeg', keptOriginal: false, file: { name: 'compressed-8x6.jpg', type: 'image/jpeg' } },
    },
    {
      title: 'Already tiny: the original is kept',
      input: { image: twoColourPng, format: 'jpeg', quality: 80 },
      outputMatches: { width: 8, height: 6, format: 'png', bytes: 99, inputBytes: 99, ratio: 1, savedPercent: 0, keptOriginal: true, file: { name: 'original-8x6.png', type: 'image/png', data: twoColourPng } },
    },
  ],
};
