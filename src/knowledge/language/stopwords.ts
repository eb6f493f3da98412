/**
 * Stop-words per language, matched on the normalised surface form (lower case, diacritics
 * folded, German umlauts as ae/oe/ue), before stemming. Function words, question words and the
 * filler of questions put to a support bot: they say what kind of answer is wanted, not what it
 * is about. English is the list the index was tuned with (retrieval/stopwords.ts); as it holds
 * "would", "want", "could", "should" and "do", the German and French lists hold the forms of their
 * modal verbs and of "faire" that questions use ("je voudrais", "pourriez-vous", "comment je fais
 * pour", "könnten Sie", "hätten Sie"): a frequency list ranks each form on its own, so
 * "voudrais" came out as a rare, telling word. German "s" is the "es" of "gibt's", "geht's", "hat's",
 * cut off at the apostrophe.
 */
import { STOP_WORDS as ENGLISH } from '../retrieval/stopwords.js';
import { DeletionIndex } from './edits.js';
import { withUndottedForms } from './german-umlauts.js';

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter((w) => w.length > 0));

const GERMAN = words(`
aber alle allem allen aller alles als also am an ans ander andere anderen auch auf aufs aus bei beim bin bis bist bitte bzw
da damit dann das dass dein deine deinem deinen deiner deines dem den denn der des dich die dies diese diesem diesen dieser dieses dir doch dort du durch
ein eine einem einen einer eines er es etwas euch euer eure eurem euren eurer eures fuer fuers gibt gegen gehabt gewesen hab habe haben habt hallo hast hat hatte hatten hier hin hinter
ich ihr ihre ihrem ihren ihrer ihres ihnen ihm ihn im in ins ist ja jede jedem jeden jeder jetzt kann kannst koennen koennt konnte lauten lautet machen man mein meine meinem meinen meiner meines mich mir mit moechte muss muessen
nach nein nicht nichts noch nun nur ob oder ohne s schon sehr sein seine seinem seinen seiner seines sich sie sind so soll sollte sonst ueber um und uns unser unsere unserem unseren unserer unseres unter
viel vom von vor wann war waren warum was weil welche welchem welchen welcher welches wenn wer werde werden wie wieder wieviel wieviele will wir wird wo wollen wuerde zu zum zur
moechten moechtest wuerden wuerdest haette haetten haettest koennte koennten koenntest darf duerfen muesste muessten sollen willst wollt
`);

const FRENCH = words(`
a ai alors au aucun aussi autre aux avec avez avoir avons bonjour c ca ce cela ces cet cette chez combien comme comment d dans de des
dois doit donc du elle elles en es est et etc etes etre eu faire fait il ils j je l la le les leur leurs lui m ma mais me merci meme mes moi mon
n ne ni nos notre nous on ont ou par pas peu peut peux plus pour pourquoi puis qu quand que quel quelle quelles quels qui quoi
s sa sans se ses si sommes son sont suis sur t ta te tes toi ton tous tout tres tu un une vos votre vous y
veux veut voulons voulez veulent voudrais voudrait voudrions voudriez voudraient pouvons pouvez peuvent pourrais pourrait
pourrions pourriez pourraient devons devez doivent devrais devrait devriez fais faisons faites font aimerais aimerait
aimerions aimeriez souhaiterais souhaiterait souhaiterions souhaiteriez faut faudrait
`);

const SPANISH = words(`
a al algo como con cual cuales cuando cuanto de del donde el ella en es esta este esto hay la las le lo los me mi mis muy
no nos o para pero por porque puedo puede que quien se si sin son su sus te tengo tiene tu un una uno y yo
`);

const ITALIAN = words(`
a ad al alla alle che chi ci come con cosa da dal dalla del della delle di dove e gli ha hai ho i il in io la le lo ma mi
ne nel nella non o per perche piu posso puo quale quando quanto se si sono su ti tu un una uno vi voi
`);

const DUTCH = words(`
aan als bij dan dat de der deze die dit door een en er het hoe hoeveel ik in is je jullie kan kun kunnen maar me met mijn
naar niet of om ook op te u uw van voor waar wanneer wat welke wij wie wordt ze zijn
`);

const PORTUGUESE = words(`
a ao as com como da das de do dos e ela ele em esta este eu isso mais mas me meu minha na nao no nos o os ou para
pela pelo por porque posso pode quais qual quando quanto que se sem seu sua te tem um uma voce
`);

export const STOP_WORDS_BY_LANGUAGE: Readonly<Record<string, ReadonlySet<string>>> = {
  en: ENGLISH,
  // "fur", "konnen", "mussen": the function words typed without the umlauts' dots are function words too.
  de: new Set(withUndottedForms([...GERMAN].map((w): [string, true] => [w, true])).keys()),
  fr: FRENCH,
  es: SPANISH,
  it: ITALIAN,
  nl: DUTCH,
  pt: PORTUGUESE,
};

/** Per language: its function words (and with an "s") by one-edit neighbourhood, and the answers given so far. */
const misspeltStopIndexes = new Map<string, { words: DeletionIndex; answers: Map<string, boolean> }>();
const REMEMBERED_WORDS = 4096;
const REMEMBERED_WORD_MAX_CHARS = 12;

/**
 * Whether `word` is a function word typed with one slip ("wat", "wen", "yoru", "wats"): a
 * question's filler must not weigh like the name of something the records never mention. Words
 * shorter than three letters are never taken for one.
 */
export function isMisspeltStopWord(word: string, language: string): boolean {
  const stops = STOP_WORDS_BY_LANGUAGE[language];
  if (stops === undefined || word.length < 3 || stops.has(word)) return false;
  let index = misspeltStopIndexes.get(language);
  if (index === undefined) {
    index = { words: new DeletionIndex([...stops].flatMap((w) => [w, `${w}s`]), 3), answers: new Map() };
    misspeltStopIndexes.set(language, index);
  }
  // Every new question asks again for the words it does not match ("thanks", "cheers"): the
  // answers are remembered, bounded, for short words (a copy of their characters, as the
  // tokeniser's word cache keeps; a longer one may be a view of a whole question).
  const known = index.answers.get(word);
  if (known !== undefined) return known;
  const answer = index.words.neighbours(word).length > 0;
  if (word.length <= REMEMBERED_WORD_MAX_CHARS) {
    if (index.answers.size >= REMEMBERED_WORDS) index.answers.clear();
    index.answers.set(word, answer);
  }
  return answer;
}
