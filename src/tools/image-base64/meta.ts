import type { ToolMeta } from '../types.js';

const twoColourPng = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAFUlEQVQI12O4o6EBR3JRJ+CIYSAlAP6WOiG4MQDJAAAAAElFTkSuQmCC';
const tinyGif = 'R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=';

export const meta: ToolMeta = {
  id: 'image-base64',
  group: 'image',
  name: 'Image to Base64 data URI',
  description: 'Turn a PNG, JPEG, WebP or GIF image into a data URI and plain Base64 for HTML, CSS or JSON. The media type is read from the file itself, not its name.',
  keywords: ['base64', 'data uri', 'data url', 'image', 'inline', 'embed', 'css', 'html'],
  api: true,
  limits: { maxInputBytes: 3_000_000 },
  inputSchema: {
    type: 'object',
    properties: {
      image: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/*', description: 'The image: PNG, JPEG, WebP or GIF (up to about 2 MB).' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'A small PNG',
      input: { image: twoColourPng },
      output: {
        result: `data:image/png;base64,${twoColourPng}`,
        base64: twoColourPng,
        mediaType: 'image/png',
        width: 8,
        height: 6,
        bytes: 99,
        dataUriLength: 154,
      },
    },
    {
      title: 'A 1 × 1 GIF',
      input: { image: tinyGif },
      output: { result: `data:image/gif;base64,${tinyGif}`, base64: tinyGif, mediaType: 'image/gif', width: 1, height: 1, bytes: 35, dataUriLength: 70 },
    },
  ],
};
