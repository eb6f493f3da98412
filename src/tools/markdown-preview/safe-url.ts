/** Link and image addresses the preview keeps: http(s), mailto and relative ones. */

const allowedSchemes = ['http:', 'https:', 'mailto:'];

/** Decodes the character references a browser would decode in an attribute (`&#58;`, `&colon;`). */
function decodeReferences(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '');
}

export function isSafeUrl(href: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
  const plain = decodeReferences(href).replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(plain);
  if (!scheme) return !plain.includes(':') || /^[^:]*[/?#]/.test(plain);
  return allowedSchemes.includes(`${scheme[1]}:`);
}
