/**
 * Whether one real word may be a typing slip for another one edit away ("trail" for "trial",
 * "loose" for "lose"), rather than another word that happens to be near it ("weather" / "leather",
 * "fille" / "ville", "femme" / "ferme", "Rasen" / "Rosen", "changé" / "charger"). A slip that
 * lands on a real word is what a hand does: two letters swapped, a letter typed twice or left out,
 * or a key hit beside the one meant. Not the first letter: people seldom mistype it, and most
 * words one edit from another by the first letter are unrelated ("pound" / "found", "later" /
 * "water", "Mitte" / "bitte").
 *
 * Keys are neighbours on any of the layouts visitors type on here: QWERTY, QWERTZ (German, "z" and
 * "y" swapped) and AZERTY (French, "a" / "q" and "z" / "w" swapped, "m" beside "l").
 */

const LAYOUTS: readonly (readonly string[])[] = [
  ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'],
  ['qwertzuiop', 'asdfghjkl', 'yxcvbnm'],
  ['azertyuiop', 'qsdfghjklm', 'wxcvbn'],
];

/** Each key's neighbours on any layout: the keys beside it and those touching it in the rows above and below. */
const NEIGHBOURS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const out = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    let set = out.get(a);
    if (set === undefined) out.set(a, (set = new Set()));
    set.add(b);
  };
  for (const rows of LAYOUTS) {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as string;
      for (let i = 0; i < row.length; i++) {
        const key = row[i] as string;
        // Beside it, and in the rows above and below, the keys at the same position and one to each side (rows are staggered).
        const around: string[] = [row[i - 1] ?? '', row[i + 1] ?? ''];
        for (const other of [rows[r - 1], rows[r + 1]]) if (other !== undefined) around.push(other[i - 1] ?? '', other[i] ?? '', other[i + 1] ?? '');
        for (const near of around) if (near !== '') add(key, near);
      }
    }
  }
  return out;
})();

/** Whether keys `a` and `b` are neighbours on a keyboard (lower-case letters; false for anything else). */
export function areNeighbourKeys(a: string, b: string): boolean {
  return NEIGHBOURS.get(a)?.has(b) === true;
}

/**
 * Whether `typed` may be a typing slip for `meant`, two different words one edit apart (lower case):
 * two neighbouring letters swapped, a letter added or left out, or a letter replaced by a
 * neighbouring key's; never at the first letter.
 */
export function isTypingSlip(typed: string, meant: string): boolean {
  if (typed === meant || typed[0] !== meant[0]) return false;
  let i = 0;
  while (i < typed.length && i < meant.length && typed[i] === meant[i]) i++;
  if (typed.length === meant.length) {
    // Swapped neighbours ("trail" / "trial"), or one key for another beside it.
    if (typed.slice(i + 2) === meant.slice(i + 2) && typed[i] === meant[i + 1] && typed[i + 1] === meant[i]) return true;
    return typed.slice(i + 1) === meant.slice(i + 1) && areNeighbourKeys(typed[i] as string, meant[i] as string);
  }
  // A letter added or left out ("loose" / "lose", "adress" / "address").
  if (typed.length === meant.length + 1) return typed.slice(i + 1) === meant.slice(i);
  if (meant.length === typed.length + 1) return meant.slice(i + 1) === typed.slice(i);
  return false;
}
