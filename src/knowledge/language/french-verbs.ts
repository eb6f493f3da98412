/**
 * Forms of French irregular verbs that the Snowball stemmer does not bring together: "vient" and
 * "viennent" (venir), "prend" and "pris" (prendre), "reçoit" and "recevez" (recevoir), "envoie" and
 * "envoyez" (envoyer), "ouvre" and "ouvert" (ouvrir). "Votre thé, il vient d'où ?" is the records'
 * "D'où viennent vos thés ?". Words are as the tokenizer folds them (lower case, no accents), and a
 * form keeps its prefix ("provient" / "proviennent", "reprend" / "repris").
 *
 * Only the content verbs a visitor's question uses; "être", "avoir", "faire", "pouvoir", "vouloir"
 * and "devoir" are stop words. Left out: forms of fewer than four letters and forms that are more
 * often nouns ("part", "mets", "vue", "mis"), which would link unrelated words.
 */

const FAMILIES: readonly (readonly string[])[] = [
  ['viens', 'vient', 'venons', 'venez', 'viennent', 'venu', 'venue', 'venus', 'venues', 'venir', 'viendra', 'viendrai', 'viendront', 'viendrait', 'vienne', 'viennes', 'venait', 'venaient'],
  ['tiens', 'tient', 'tenons', 'tenez', 'tiennent', 'tenue', 'tenus', 'tenues', 'tenir', 'tiendra', 'tiendrai', 'tiendront', 'tienne', 'tenait'],
  ['prends', 'prend', 'prenons', 'prenez', 'prennent', 'pris', 'prise', 'prises', 'prendre', 'prendra', 'prendrai', 'prendront', 'prenne', 'prenait'],
  ['mettons', 'mettez', 'mettent', 'mise', 'mises', 'mettre', 'mettra', 'mettrai', 'mette', 'mettait'],
  ['recois', 'recoit', 'recevons', 'recevez', 'recoivent', 'recu', 'recue', 'recus', 'recues', 'recevoir', 'recevra', 'recevrai', 'recevrez', 'recoive'],
  ['envoie', 'envoies', 'envoient', 'envoyons', 'envoyez', 'envoye', 'envoyee', 'envoyes', 'envoyees', 'envoyer', 'enverra', 'enverrai', 'enverrons', 'enverrez', 'enverront'],
  ['vois', 'voit', 'voyons', 'voyez', 'voient', 'voir', 'verra', 'verrai', 'verrez', 'voie'],
  ['partons', 'partez', 'partent', 'parti', 'partie', 'partis', 'parties', 'partir', 'partira', 'partirai', 'partiront'],
  ['sais', 'sait', 'savons', 'savez', 'savent', 'savoir', 'saura', 'saurai', 'sache'],
  ['suit', 'suivons', 'suivez', 'suivent', 'suivi', 'suivie', 'suivis', 'suivre', 'suivra'],
  ['ouvre', 'ouvres', 'ouvrons', 'ouvrez', 'ouvrent', 'ouvert', 'ouverte', 'ouverts', 'ouvertes', 'ouvrir', 'ouvrira'],
  ['conduis', 'conduit', 'conduisons', 'conduisez', 'conduisent', 'conduite', 'conduire', 'conduira'],
];

/** The prefixes a form may carry and keep: "provient", "revient", "obtient", "reprend", "renvoie", "prévoit". */
const PREFIXES = ['', 're', 'pro', 'de', 'con', 'ob', 'sou', 'main', 'com', 'ap', 'sur', 'per', 'pre', 'ad', 'entre', 'dis', 'ac'];

const FAMILY_OF = new Map<string, readonly string[]>();
for (const family of FAMILIES) for (const form of family) FAMILY_OF.set(form, family);

/** The other forms of a folded French verb form (with its prefix), or none when it is no form listed. */
export function frenchRelatives(word: string): string[] {
  for (const prefix of PREFIXES) {
    if (!word.startsWith(prefix)) continue;
    const family = FAMILY_OF.get(word.slice(prefix.length));
    if (family !== undefined) return family.filter((form) => prefix + form !== word).map((form) => prefix + form);
  }
  return [];
}
