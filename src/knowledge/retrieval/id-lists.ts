/**
 * Lists of small ids kept by a query cache (the surface words' and terms' sorted orders), on the
 * JavaScript heap (issue 14, memory per knowledge base; docs/indexing.md, "Session 12"). Ids below
 * 65,536 are the UTF-16 code units of a string: a 16-byte header and 2 bytes an id, where a
 * typed array of its own also costs a view, an `ArrayBuffer` object and a backing store outside
 * the heap (~400 bytes besides its contents; ~350 ids in a 25-record knowledge base). Larger ids
 * stay in an `Int32Array`. Read with `idAt`; a string's code units are any 16-bit values.
 */
export type IdList = string | Int32Array;

/** Code units per `String.fromCharCode` call (its arguments go on the stack). */
const CHUNK = 4096;

/** `ids` (each ≥ 0) as an id list: a string when every id is below 65,536. */
export function idList(ids: readonly number[]): IdList {
  let largest = 0;
  for (const id of ids) largest = Math.max(largest, id);
  if (largest > 0xffff) return Int32Array.from(ids);
  let out = '';
  for (let i = 0; i < ids.length; i += CHUNK) out += String.fromCharCode(...ids.slice(i, i + CHUNK));
  return out;
}

export function idAt(list: IdList, i: number): number {
  return typeof list === 'string' ? list.charCodeAt(i) : (list[i] as number);
}

/** Bytes held by a list, about. */
export function idListBytes(list: IdList): number {
  return typeof list === 'string' ? 16 + list.length * 2 : 200 + list.byteLength;
}
