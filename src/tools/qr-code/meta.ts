import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'qr-code',
  group: 'developer',
  name: 'QR code generator',
  description: 'Make a QR code from text or a URL, as SVG and PNG, with a choice of error-correction level.',
  keywords: ['qr', 'qr code', 'generator', 'barcode', 'svg', 'png', 'url'],
  api: true,
  limits: { maxInputBytes: 20_000 },
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', maxLength: 7089, description: 'The text or URL to encode.' },
      errorCorrection: { type: 'string', enum: ['L', 'M', 'Q', 'H'], default: 'M', description: 'Error correction: L 7 %, M 15 %, Q 25 %, H 30 % of the code can be damaged. Higher levels hold less text.' },
      scale: { type: 'integer', minimum: 1, maximum: 20, default: 8, description: 'PNG pixels per module.' },
      margin: { type: 'integer', minimum: 0, maximum: 10, default: 4, description: 'Quiet zone in modules (4 is the standard).' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'A URL, small PNG',
      input: { text: 'https://example.com', scale: 4 },
      outputMatches: { version: 2, modules: 25, width: 132, height: 132, file: { name: 'qr-code.png', type: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAIQAAACECAAAAAB0L9x7AAABQUlEQVR42u3aSw7DIAxF0ex/0+20imL7uRGfh24mlVACZ2AVbHN9NnhAgAABAgQIEGchruTJ3v0da88DYnvEY/Dcxu8L3xdR5wHhg4gmjRaKkAoOhD/i3z8tEOciogWfsCDOQWS4bBPrboQgPBDZAbXzO+y0DWIqokxeG4E7LCsHMRWRBVYXpXwPYn+EujFlB5VqHIQXQtm4niavEqDoWxA+CDXRzcai5BmEF0JJejNwBQThh6gOI50CulJ0A+GByIJVDd5oE3xdqQGxFFEdVLNFq8AG4YeIEqBOE19p1oLYH6EUzqqAzN4H4YfoFMajwFUaciC8EFUBvdOAky77gLBAqA17tfE29NYAiOWIqkmXHYJAnImoCurKBgfCDyEVxoXCu1SUBbE9otqIlILq8NtFIKYhVjwgQIAAAQIECGvEFwneovK3BLdmAAAAAElFTkSuQmCC' } },
    },
    { title: 'High error correction', input: { text: 'Hello, QR!', errorCorrection: 'H' }, outputMatches: { version: 2, modules: 25, width: 264, height: 264 } },
    { title: 'No quiet zone', input: { text: 'A', margin: 0, scale: 1 }, outputMatches: { version: 1, modules: 21, width: 21, height: 21 } },
  ],
};
