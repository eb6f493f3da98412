import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'ocr-image',
  group: 'ai',
  name: 'Image to text (OCR, English)',
  description:
    'Read printed English text from a PNG or JPEG image with Tesseract OCR. Runs in your browser (or on the server through the API); the model ships with the site, nothing is sent elsewhere.',
  keywords: ['ocr', 'image to text', 'text recognition', 'tesseract', 'extract text', 'scan', 'screenshot', 'png', 'jpeg'],
  api: true,
  browser: 'browser',
  server: 'server',
  limits: { maxInputBytes: 14_000_000, timeoutMs: 60_000 },
  inputSchema: {
    type: 'object',
    properties: {
      image: {
        type: 'string',
        contentEncoding: 'base64',
        contentMediaType: 'image/*',
        description: 'A PNG or JPEG image with printed English text, at most 25 megapixels and about 10 MB.',
      },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Two big words',
      input: {
        image: 'iVBORw0KGgoAAAANSUhEUgAAAWgAAABaAQMAAACv7l6EAAAABlBMVEUODg7////APDf/AAAACXBIWXMAAAsTAAALEwEAmpwYAAABo0lEQVRYw+3WPW6sMBAA4JkQyaWrSOn2KJzi1clNcK6TXMJdrsER3L0pEM7MGIufxbAUURqvYFfAh41n8HghXvlA1VVXXfXv6r5Lvx/yNdiFJpQNAG6h0SO+DkavBhDooCOArqh7SH164DMjX2FtitqnpuQkn2HJOxa1HERtle/qk4aSFmX18QFa6Uh1V9Ci5DFJ+3AP6qB9wKTbtW6zJuh8o6GJok00hLTWfJB1gNhrIJvozMgP8004ljXKxoE00TfC/k9gV3ObBEn3zSDDe0Q7y6fOteGwTBr1vlPNLbrbjgYHGsEuaz9rDh1uNMA63qxHTd1CjzmX99rea7qi53fwWIdJY7zStrmk7SXdxEJ2cgTdUuOBHu40xPPMU848HevNWzWs52X5jV1nvjwb7DwbHpppoqeZdjufxT7P4o1++fcWnj6/CHnPFQKlPKQKIYPYVB/OgUSW4FlTF+BVq8/7od6pbChD3te5atJcNVGGvK93KjJKygraa41cVnuUABX0aiXhUVgGoahJQ7JcpVK+CiugaxcLJJn6r6Dqqqv+W/0DtU76a4X1z5kAAAAASUVORK5CYII=',
      },
      outputMatches: { result: 'HELLO OCR', words: 2, lines: 1, width: 360, height: 90 },
    },
  ],
};
