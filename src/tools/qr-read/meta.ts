import type { ToolMeta } from '../types.js';

/** A PNG made by the qr-code tool (scale 4) for https://example.com. */
const exampleQr = 'iVBORw0KGgoAAAANSUhEUgAAAIQAAACECAAAAAB0L9x7AAABQUlEQVR42u3aSw7DIAxF0ex/0+20imL7uRGfh24mlVACZ2AVbHN9NnhAgAABAgQIEGchruTJ3v0da88DYnvEY/Dcxu8L3xdR5wHhg4gmjRaKkAoOhD/i3z8tEOciogWfsCDOQWS4bBPrboQgPBDZAbXzO+y0DWIqokxeG4E7LCsHMRWRBVYXpXwPYn+EujFlB5VqHIQXQtm4niavEqDoWxA+CDXRzcai5BmEF0JJejNwBQThh6gOI50CulJ0A+GByIJVDd5oE3xdqQGxFFEdVLNFq8AG4YeIEqBOE19p1oLYH6EUzqqAzN4H4YfoFMajwFUaciC8EFUBvdOAky77gLBAqA17tfE29NYAiOWIqkmXHYJAnImoCurKBgfCDyEVxoXCu1SUBbE9otqIlILq8NtFIKYhVjwgQIAAAQIECGvEFwneovK3BLdmAAAAAElFTkSuQmCC';

export const meta: ToolMeta = {
  id: 'qr-read',
  group: 'developer',
  name: 'QR code reader',
  description: 'Read the text of a QR code in a PNG, JPEG, GIF or WebP image (up to 50 megapixels).',
  keywords: ['qr', 'qr code', 'reader', 'scanner', 'decode', 'scan', 'barcode'],
  api: true,
  limits: { maxInputBytes: 15_000_000 },
  browser: 'browser',
  server: 'server',
  inputSchema: {
    type: 'object',
    properties: {
      image: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/*', description: 'The image with the QR code (PNG, JPEG, GIF or WebP).' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Read a generated QR code',
      input: { image: exampleQr },
      outputMatches: { result: 'https://example.com', version: 2, width: 132, height: 132 },
    },
  ],
};
