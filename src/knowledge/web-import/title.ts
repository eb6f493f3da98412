/**
 * A page's `<title>`, read from its head only (the first 64 KiB, stopping at `</title>`): the name
 * of the page's source. Entities decoded, white space collapsed; null when there is none.
 */
import { Parser } from 'htmlparser2';

const HEAD_BYTES = 64 * 1024;

export function pageTitle(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEAD_BYTES)).toString('utf8');
  let depth = 0;
  let inSvg = 0;
  let title = '';
  let done = false;
  const parser = new Parser(
    {
      onopentag: (name) => {
        if (name === 'svg') inSvg++;
        else if (name === 'title' && !inSvg && !done) depth++;
      },
      ontext: (data) => {
        if (depth > 0 && !done) title += data;
      },
      onclosetag: (name) => {
        if (name === 'svg') inSvg--;
        else if (name === 'title' && depth > 0) {
          depth--;
          done = true;
          parser.pause();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(head);
  const clean = title.replace(/\s+/g, ' ').trim();
  return clean || null;
}
