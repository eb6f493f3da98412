/**
 * What kind of answer a question phrase asks for, and whether a text holds one. "How long do I have
 * to return something?" asks for a duration, and "Returns are accepted within 30 days" answers it
 * without the word "long"; "Wie viel kostet der Versand?" asks for an amount ("4,95 €"); "How many
 * filters are in a box?" asks for a quantity ("100 filters"); "What's your phone number?" for a
 * phone number ("call us on 0114 496 0321"), "When are you open?" for opening hours. The phrase
 * counts like one question word that a passage covers when it holds an answer of that kind
 * (answering/unit-scores.ts reads it as the pseudo-term `answerTypeTerm(type)` in a unit's terms). The
 * kinds of contact (contact-details.ts) and an age limit are also terms of the index
 * (`indexedAnswerTermsIn`), so such a question finds the records that give one.
 *
 * Deliberately narrow: only interrogative phrases that name the kind unambiguously, in the
 * languages with analysers (English, German, French), and only answers written with digits, a
 * currency, or a small number word next to a unit of time; a quantity is any number in digits;
 * contact details as contact-details.ts finds them.
 */
import { type ContactAsk, contactKindsIn } from './contact-details.js';
import { weightValue } from './product-order.js';

/**
 * A span of time, a price, a count or measure ("how many filters", "how much coffee does it hold"),
 * or how or when to reach the business (contact-details.ts: "What's your phone number?" is answered
 * by "call us on 0114 496 0321", which says neither "phone" nor "number").
 */
export type AnswerType = 'duration' | 'length' | 'amount' | 'quantity' | 'weight' | 'temperature' | 'speed' | 'time' | 'colour' | 'tracking' | 'age' | ContactAsk;

/** Each kind's pseudo-term, made once: the lists of kinds kept with records' units share them. */
const TYPE_TERMS = new Map<AnswerType, string>();

/** The pseudo-term of a kind of answer: it cannot collide with a real term (a control character). */
export function answerTypeTerm(type: AnswerType): string {
  let term = TYPE_TERMS.get(type);
  if (term === undefined) {
    term = `\u0001${type}`;
    TYPE_TERMS.set(type, term);
  }
  return term;
}

/** Whether `term` is the pseudo-term of a kind of answer (`answerTypeTerm`: a control character first). */
export function isAnswerTypeTerm(term: string): boolean {
  return term.charCodeAt(0) === 1;
}

interface Ask {
  type: AnswerType;
  /** The phrase in a lower-cased question. */
  phrase: RegExp;
}

const ASKS: Readonly<Record<string, readonly Ask[]>> = {
  en: [
    { type: 'duration', phrase: /\bhow (?:long|soon|quickly|fast)\b/u },
    // When something the visitor waits for comes: "when will it arrive?", "when does it leave you?",
    // "when will I get my money back?", answered by "within 5 working days", "the next working day".
    { type: 'duration', phrase: /\bwhen (?:will|would|does|do|is|are|can|could|should)\b(?: \p{L}+){0,4}? (?:arrive|come|leave|ship|dispatch|go out|get here|be (?:here|delivered|dispatched|shipped|sent|refunded|ready)|(?:get|receive) (?:it|them|my|the|a|an|our)\b)/u },
    // "How long is the hose?" asks for a length as much as "How long is the warranty?" for a span of time.
    // So does "How long do the poles go up to?" / "how long does the cable reach?": a thing's extent, not "how long does it take to get there".
    { type: 'length', phrase: /\bhow long (?:is|are|was|were)\b|\bhow long (?:do|does|can|will|would) (?:\S+ ){1,3}(?:go|extend|reach|stretch)(?:es|s)?(?: (?:up )?to| out)?\s*(?:[?!.,;]|$)/u },
    // "How much does it weigh?" asks for a weight, not a price; "What do I pay for half an hour?" for one.
    { type: 'amount', phrase: /\bhow much\b(?![^?.!]*\bweigh)(?![^?.!]*\b(?:hold|holds|contain|contains)\b)|\bwhat (?:do|does|did|will|would|should|shall) (?:i|we|you|one|they) (?:have to |need to )?pay\b(?! (?:with|by|using|via|through)\b)|\bhow (?:expensive|cheap|pricey|dear)\b|\bwhat (?:does|do|did|will|would) (?:it|they|that|this|the|a|an|your|one)\b[^?.!]*\bcost\b|\b(?:what(?:'s|’s| is| are)|whats) (?:the )?(?:price|cost)s?\b|\b(?:price|cost)s? of\b/u },
    // "Does that cost anything?", "is it extra?", "any extra charge?": whether something costs, which
    // "Reservations are free" answers as much as a price does.
    { type: 'amount', phrase: /\b(?:does|do|will|would) (?:it|that|this|they|those|these|one) (?:cost|charge) (?:anything|extra|more|money|something)\b|\b(?:is|are|will) (?:it|that|this|they|those|these) (?:be )?(?:free|extra|chargeable)\s*(?:[?!.,;]|$)|\b(?:is|are) there (?:a|an|any)(?: extra| additional)? (?:charge|fee|cost)s?\b|\bany (?:extra|additional) (?:charge|fee|cost)s?\b/u },
    // A weight: "How heavy is the tent?", "What does it weigh?", "How light is it?", "What's the weight?".
    { type: 'weight', phrase: /\bhow (?:heavy|light)\b|\bweigh(?:s|ing)?\b|\bweight\b/u },
    // A temperature: "What temperature should the water be?", "How hot does it get?".
    { type: 'temperature', phrase: /\b(?:what|which) (?:water )?temp(?:erature)?s?\b|\bhow hot\b|\bhow many degrees\b/u },
    // A speed: "What's the top speed?", "How fast does the e-bike go?"; not "how fast will it arrive", a duration.
    { type: 'speed', phrase: /\b(?:top|max|maximum|highest|average|cruising|assisted) speeds?\b|\b(?:what|which) speeds?\b|\bhow fast (?:does|do|can|will|would) (?:it|they|the|an?|your|one|e-?bikes?|bikes?|scooters?)\b[^?.!]*\bgo\b/u },
    // A time of day: "What time can we check in?", "at what time does the bar close?"; not "what time zone".
    { type: 'time', phrase: /\b(?:what|which) times?\b(?! (?:zones?|frames?|periods?|limits?)\b)/u },
    // "how much coffee does it hold" asks for a quantity, not a price (above); "how much is it" only for a price.
    { type: 'quantity', phrase: /\bhow many\b|\bhow much\b[^?.!]*\b(?:hold|holds|contain|contains)\b|\bhow much (?!(?:is|are|does|do|did|was|were|will|would|should|can|could|to|for|it|its|that|this|they|i|we|you|extra|more|less)\b)(?![^?.!]*\bweigh)\p{L}/u },
    // A number to call, not an order's or a tracking number; "when can I phone you" asks for hours.
    { type: 'phone', phrase: /(?<!\b(?:my|our|his|her|their) )\b(?:(?:tele)?phone|contact|mobile|cell|support|helpline|hotline|customer service) (?:number|no\b)|\bnumber (?:to|i can|can i|we can|can we|should i) (?:call|ring|phone|dial)\b|\b(?:helpline|hotline)\b/u },
    { type: 'email', phrase: /(?<!\b(?:my|our|his|her|their) )\be-?mail (?:address|addy)\b|\baddress (?:to|i can|can i|should i) (?:e-?mail|write to)\b|\bwhat(?:'s| is) (?:your|the) e-?mail\b/u },
    // When the business, its support or its shop is open: not "open an account" nor "how long".
    {
      type: 'hours',
      phrase:
        /\b(?:opening|business|office|support|service|shop|store|chat|phone|call centre|call center|customer service) hours\b|\bhours of (?:business|operation|service)\b|\b(?:are|is) (?:you|the shop|the store|the office|support|customer service|(?:the |your )?(?:live )?chat)\s+(?:open|closed|available|online)\b|\bwhen (?:are|is|do|does) (?:you|your|the|support|customer service|(?:the |your )?(?:live )?chat)\b[^?.!]*\b(?:open|close|closed|available|online)\b|\bwhat time (?:do|does|are|is)\b[^?.!]*\b(?:open|close|closed|available)\b|\bwhen can i (?:call|ring|phone|reach|contact|chat with) (?:you|someone|support|a person|customer service)\b/u,
    },
    // The business's postal address, not an email address nor the customer's delivery address.
    { type: 'address', phrase: /\b(?:your|the|ur) (?:postal |street |shop |store |office |warehouse |returns? |business |company )?address\b|\b(?:what|which) (?:postal |street )?address\b(?! (?:do i|should i) (?:put|use|enter|type) for (?:my )?e-?mail)|\b(?:where(?: exactly)?|whereabouts) (?:are|r) (?:you|u) (?:located|based)\b|\b(?:where(?: exactly)?|whereabouts) (?:are|r) (?:you|u)(?: guys)?(?=\s*(?:[?!.,;]|and\b|$))|\bwhere(?: is|'s) (?:your|the) (?:shop|store|office|warehouse|showroom|company|business|clinic|school|studio|workshop)\b/u },
    // Where an order is: answered by how to track it ("Where is my order?" / "How do I track my order?").
    { type: 'tracking', phrase: /\bwhere(?:'s|’s| is| are) (?:my|our) (?:order|parcel|package|delivery|shipment|stuff)\b|\bwhere(?:'s|’s| is) the (?:order|parcel|package|delivery|shipment)\s*(?:[?!.,;]|$)|\b(?:status of|track(?:ing)?|trace) (?:my|our) (?:order|parcel|package|delivery|shipment)\b|\border status\b|\bhas my (?:order|parcel|package) (?:shipped|been (?:shipped|sent|dispatched))\b/u },
    // An age limit: "How old do you have to be?", "what age", "Is there a minimum age?".
    // "How old is the kettle?" asks a thing's age, not a limit.
    { type: 'age', phrase: /\bhow old\b(?! (?:is|was|are (?:the|these|those|they|it)|were)\b)|\bwhat age\b|\b(?:minimum|min|legal|lowest) age\b|\bage (?:limit|requirement|restriction|minimum)s?\b|\bold enough\b/u },
    // A colour: "What colour is the kettle?", "Does the E48 come in red?", "available in other colours".
    { type: 'colour', phrase: /\b(?:what|which) colou?rs?\b|\b(?:comes?|available|made|sold|get (?:it|one|them)) in (?:any |other |different |more )?(?:colou?rs?|finish(?:es)?|black|white|red|blue|green|yellow|grey|gray|silver|gold|golden|copper|brass|bronze|chrome|pink|purple|violet|orange|brown|beige|cream|navy|teal|turquoise|charcoal|graphite|ivory|burgundy|olive)\b|\bcolou?r (?:options|choices|range)\b|(?<!\p{L})in (?:black|white|red|blue|green|yellow|grey|gray|silver|gold|golden|copper|brass|bronze|chrome|pink|purple|violet|orange|brown|beige|cream|navy|teal|turquoise|charcoal|graphite|ivory|burgundy|olive)\s*[?!.]*$/u },
    // Any way to reach a person: "How can I contact you?", "Can I talk to a human?", "get in touch".
    {
      type: 'contact',
      phrase:
        /\b(?:contact|reach|get hold of|get in touch with) (?:you|u|someone|somebody|(?:a |an )?(?:actual |real |live )?(?:person|human)|support|customer (?:service|support|care)|your (?:team|support team|customer service))\b|\bget in touch\b|\bcontact (?:details|info|information|options)\b|\b(?:talk|speak|chat) (?:to|with) (?:a |an |some |your )?(?:actual |real |live )?(?:human|humans|person|people|someone|somebody|agent|representative|rep|member of (?:staff|your team)|customer (?:service|support|care)|support|you guys)\b/u,
    },
  ],
  de: [
    { type: 'duration', phrase: /\bwie (?:lange?|schnell|bald)\b/u },
    // "Wann bekomme ich die Kaution wieder?", "wann ist das Zeug bei mir?", "wann kommt das Paket an?".
    { type: 'duration', phrase: /\bwann (?:bekomme|bekommen|kriege|krieg|kriegen|erhalte|erhalten) (?:ich|wir|man)\b[^?.!]*\b(?:wieder|zurück|zurueck)\b|\bwann (?:ist|sind|kommt|kommen)\b[^?.!]*\b(?:bei (?:mir|uns)|an|da)\s*(?:[?!.,;]|$)/u },
    // "Wie lang ist der Schlauch?"; "wie lange" asks for time.
    { type: 'length', phrase: /\bwie lang (?:ist|sind|war|waren)\b/u },
    // "Wie hoch sind die Versandkosten?", "Wie hoch ist die Kaution?": the level of a cost or a charge.
    { type: 'amount', phrase: /\bwie ?viel\b(?! uhr\b)(?![^?.!]*(?<!\p{L})wieg)|\bwas (?:be)?zahl(?:e|t|en) (?:ich|man|wir|sie|du|ihr)\b|\bwas (?:muss|müssen|musst|müsst) (?:ich|man|wir|sie|du|ihr) (?:\p{L}+ ){0,4}(?:be)?zahlen\b|\bwas (?:kostet|kosten)\b|\bwie teuer\b|\b(?:welchen|welcher|was ist der|was sind die|wie (?:hoch )?(?:ist|sind) (?:der|die)|zu welchem) preise?(?!\p{L})|\bwie hoch (?:ist|sind|wäre|wären) (?:der|die|das|eure|ihre|deine) \p{L}*(?:kosten|gebühr|gebühren|preis|preise|miete|kaution|beitrag|beiträge|pauschale|aufpreis|zuschlag)(?!\p{L})/u },
    // "Kostet das extra?", "Ist das kostenlos?", "Muss ich dafür was zahlen?", "Gibt es einen Aufpreis?".
    { type: 'amount', phrase: /(?<!\p{L})(?:kostet|kosten) (?:das|es|der|die|dies|sie|er) (?:\p{L}+ )?(?:extra|etwas|was|zusätzlich|mehr|geld)\s*(?:[?!.,;]|$)|(?<!\p{L})(?:ist|sind) (?:das|es|der|die|dies|sie|er) (?:auch |denn )?(?:kostenlos|umsonst|gratis|kostenpflichtig|extra)\s*(?:[?!.,;]|$)|(?<!\p{L})(?:muss|müssen) (?:ich|man|wir) (?:dafür|da|das) (?:extra |etwas |was |noch )?(?:be)?zahlen(?!\p{L})|(?<!\p{L})gibt es (?:da )?(?:einen |eine )?(?:aufpreis|zuschlag|gebühr)(?!\p{L})/u },
    // Not "wie leicht" ("how easy", more often than "how light").
    { type: 'weight', phrase: /\bwie schwer\b|(?<!\p{L})(?:wiegt|wiegen|gewicht)(?!\p{L})/u },
    { type: 'temperature', phrase: /\bwelche(?:r|n|s)? (?:wasser)?temperatur\b|\bwie (?:heiß|heiss|warm)\b|\bwie viel grad\b|\bwie viele grad\b/u },
    // Not "wie schnell" alone: "Wie schnell ist das Geld zurück?" asks for a duration.
    { type: 'speed', phrase: /(?<!\p{L})(?:höchst|maximal|spitzen|durchschnitts)?geschwindigkeit(?!\p{L})|\bwie schnell (?:fährt|fahren|läuft|laufen)\b/u },
    { type: 'quantity', phrase: /\bwie ?viele\b/u },
    // A time of day: "Ab wie viel Uhr können wir rein?", "Um welche Uhrzeit …?".
    { type: 'time', phrase: /\b(?:um|ab|bis) wie ?viel uhr\b|(?<!\p{L})(?:um |ab |bis |zu )?(?:welche|welcher) uhrzeit\b/u },
    { type: 'phone', phrase: /(?<!\b(?:meine|meiner|unsere|unserer) )\btelefon-? ?nummer\b|\brufnummer\b|\b(?:hotline|servicenummer)\b/u },
    { type: 'email', phrase: /(?<!\b(?:meine|meiner|unsere|unserer) (?:e-?)?)\b(?:e-?)?mail-? ?adresse\b/u },
    // \b is ASCII-only, even with the u flag: "(?<!\p{L})" before a word that may start with an umlaut.
    // Spoken German opens with "auf" at the end: "Habt ihr sonntags auf?", "Wann macht ihr zu?".
    { type: 'hours', phrase: /(?<!\p{L})(?:öffnungs|service|sprech|geschäfts)zeiten\b|\b(?:habt|hat|haben|ist|sind|seid) (?:ihr|sie|der laden|der shop|das geschäft|der kundenservice|der support)\b[^?.!]*\b(?:geöffnet|offen|erreichbar)\b|\b(?:wann|bis wann|ab wann|um wie viel uhr)\b[^?.!]*\b(?:geöffnet|offen|erreichbar|anrufen)\b|\b(?:habt|hat|haben|seid) (?:ihr|sie|der laden|der shop|das geschäft|das studio)\b[^?.!]*\bauf\s*[?!.]*$|\b(?:wann|bis wann|ab wann|um wie viel uhr)\s+(?:macht|machen)\b[^?.!]*\b(?:auf|zu)\b/u },
    // "Rücksendeadresse", "die Adresse für Rücksendungen"; not "Lieferadresse", the customer's.
    { type: 'address', phrase: /\b(?:eure|ihre|deine) (?:post)?adresse\b|\bwelche (?:post)?adresse\b(?! (?:für (?:die )?e-?mail|e-?mail))|(?<!\p{L})(?:rücksende|rueckgabe|rückgabe|retouren|retoure|retour)-?adresse\b|(?<!\p{L})(?:die )?adresse (?:für|fuer|zur) (?:die |eine )?(?:rücksendung(?:en)?|retoure(?:n)?|rückgabe|rücksendungen)\b|\bwie (?:ist|lautet) (?:eure|die|ihre) adresse\b|(?<!\p{L})anschrift\b|\bwo (?:seid ihr|sitzt ihr|befindet ihr euch|befinden sie sich)\b|\bwo (?:ist|befindet sich|liegt) (?:euer|eure|ihr|ihre|der|die|das) (?:laden|geschäft|lager|büro|sitz|showroom|praxis|fahrschule|werkstatt)\b/u },
    { type: 'tracking', phrase: /\bwo (?:ist|bleibt) (?:meine|unsere) (?:bestellung|lieferung|sendung|ware)\b|\bwo (?:ist|bleibt) (?:die bestellung|die lieferung|die sendung|das paket)\s*(?:[?!.,;]|$)|\bwo (?:ist|bleibt) (?:mein|unser) (?:paket|päckchen)(?!\p{L})|\bstatus (?:meiner|der|unserer) (?:bestellung|sendung|lieferung)\b|(?<!\p{L})bestellstatus\b|\b(?:meine|die) (?:sendung|bestellung) (?:verfolgen|nachverfolgen)\b/u },
    { type: 'age', phrase: /\bwie alt\b|\bab welchem alter\b|\bmindestalter\b|\baltersgrenze\b|(?<!\p{L})altersbeschränkung|\balt genug\b/u },
    { type: 'colour', phrase: /\bwelche(?:r|n)? farben?\b|\bin (?:welchen|anderen|weiteren|mehreren|verschiedenen) farben\b|\b(?:auch |noch )?in (?:schwarz|weiß|weiss|rot|blau|grün|gelb|grau|silber|silbern|gold|golden|kupfer|messing|bronze|chrom|rosa|pink|lila|violett|orange|braun|beige|creme|anthrazit|türkis|olivgrün|bordeaux)\s*[?!.]*$|\bfarbe (?:hat|haben)\b/u },
    {
      type: 'contact',
      phrase:
        /\b(?:euch|sie|dich|jemanden|den kundenservice|den kundendienst|den support|den service)\s+(?:\p{L}+\s+)?(?:erreichen|kontaktieren)\b|\bkontakt (?:aufnehmen|zu euch|mit euch)\b|(?<!\p{L})kontaktmöglichkeit(?:en)?\b|\bmit (?:einem|einer|jemandem|einem echten|einer echten) ?(?:menschen|mitarbeiter(?:in)?|person|berater(?:in)?)?\s+(?:sprechen|reden|chatten|telefonieren)\b/u,
    },
  ],
  fr: [
    { type: 'duration', phrase: /\bcombien de (?:temps|jours)\b/u },
    // "ça arrive quand ?", "quand est-ce que je serai livré ?", "je suis remboursé quand ?".
    { type: 'duration', phrase: /(?<!\p{L})(?:arrive|arrivera|arrivent|livrée?s?|livré|rembours\p{L}*|reçu|expédiée?s?|expédié|part) quand(?!\p{L})|(?<!\p{L})quand (?:est-ce (?:que|qu['’]))?\s*(?:je|j['’]|on|vous|ça|ca|il|elle|le colis|ma commande)? ?(?:serai|sera|va|vais|vont)? ?(?:arriv|livr|recevr|reçoi|rembours|expédi)\p{L}*/u },
    // Spoken French asks a price with "c'est combien", "ça coûte combien", "ça fait combien".
    { type: 'amount', phrase: /\bqu['’]est-ce (?:que |qu['’])(?:je|on|nous) (?:paie|paye|payons|vais payer|va payer|dois payer|doit payer|devons payer)\b|\bque (?:dois-je|doit-on|devons-nous|vais-je) payer\b|\bcombien (?:co[uû]te|ça co[uû]te|je (?:dois|vais) payer|faut-il payer|c['’]est)\b|\bcombien (?:je|on|nous|vous) (?:pai|pay)\p{L}*|(?<!\p{L})(?:pai|pay)(?:e|es|ent|ons|ez|er|erai|erais|erait|era|erez|erons) combien\b|\bc['’]est combien\b|(?<!\p{L})(?:co[uû]te(?:nt)?|[çc]a fait) combien\b|(?<!\p{L})(?:quel|quels|à quel|a quel)(?: est le| sont les| sont vos)? prix\b|\bquel est le (?:co[uû]t|tarif)\b|\bquels sont (?:les|vos) tarifs\b|\bc['’]est quoi (?:le prix|le tarif|les tarifs)\b/u },
    // "C'est payant ?", "c'est en supplément ?", "ça coûte quelque chose ?", "y a-t-il des frais ?".
    { type: 'amount', phrase: /(?<!\p{L})(?:c['’]est|est-ce(?: que c['’]est)?) (?:gratuit|payant|en supplément|en plus)\p{L}*\s*(?:[?!.,;]|$)|(?<!\p{L})(?:ça|cela|ca) (?:co[uû]te|fait) (?:quelque chose|plus cher|un supplément|en plus)(?!\p{L})|(?<!\p{L})(?:faut-il|dois-je|doit-on|on doit|je dois) payer (?:en plus|un supplément|quelque chose)(?!\p{L})|(?<!\p{L})(?:y a-t-il|il y a) (?:des )?frais(?!\p{L})/u },
    { type: 'quantity', phrase: /\bcombien d(?:e |')(?!temps\b|jours\b)\p{L}/u },
    // A time of day: "À quelle heure peut-on arriver ?", "a kel heure" (chat-speak.ts reads "quel").
    { type: 'time', phrase: /(?<!\p{L})quel(?:le)? heure(?!\p{L})/u },
    // Not "léger" or "lourd" alone: "un léger retard", "des frais lourds".
    { type: 'weight', phrase: /(?<!\p{L})(?:poids|p[èe]se(?:nt)?)(?!\p{L})/u },
    { type: 'temperature', phrase: /(?<!\p{L})quelles? (?:températures?|temperatures?)(?!\p{L})|(?<!\p{L})combien de degrés(?!\p{L})/u },
    { type: 'speed', phrase: /(?<!\p{L})vitesse (?:max(?:imale|imum)?|de pointe|moyenne)(?!\p{L})|(?<!\p{L})(?:quelle|à quelle|a quelle) vitesse(?!\p{L})/u },
    { type: 'phone', phrase: /(?<!\b(?:mon|notre) )\bnum[ée]ro (?:de (?:t[ée]l[ée]phone|t[ée]l\b|portable|contact)|(?:pour|à) (?:appeler|joindre))/u },
    { type: 'email', phrase: /(?<!\b(?:mon|notre) )\badresse (?:e-?mail|mail|m[ée]l|[ée]lectronique|courriel)\b/u },
    { type: 'hours', phrase: /\bhoraires?\b|\bheures d'ouverture\b|(?<!\p{L})(?:êtes-vous|etes-vous|vous êtes|vous etes|est-ce que vous êtes) (?:ouverts?|ouvertes?|joignables?|disponibles?)\b|(?<!\p{L})(?:à|a) quelle heure\b[^?.!]*\b(?:ouvr|ferm|appeler|joindre)|\bquand\b[^?.!]*\b(?:ouverts?|ouvertes?|joignables?|vous appeler|vous joindre)\b/u },
    // "l'adresse pour les retours", "l'adresse de retour", "quelle est l'adresse ?"; not "l'adresse de livraison", the customer's.
    { type: 'address', phrase: /\bvotre adresse(?! (?:e-?mail|mail|m[ée]l|[ée]lectronique|courriel))\b|(?<!\p{L})quelle adresse(?! (?:e-?mail|mail|m[ée]l|[ée]lectronique|courriel|ip\b))|\badresse postale\b|(?<!\p{L})l['’]adresse (?:pour (?:les |le |un |mes |mon |ma )?(?:retours?|renvoyer|renvoi|retourner)|de (?:retour|renvoi|la boutique|l['’]entrepôt|l['’]atelier)|du (?:magasin|siège|service (?:client|retours?)|sav|entrepôt|bureau))\b|(?<!\p{L})quelle est l['’]adresse\s*(?:[?!.]|$)|(?<!\p{L})où (?:êtes-vous|etes-vous|vous trouvez-vous|se trouve votre (?:boutique|magasin|entrepôt|siège))|(?<!\p{L})vous (?:êtes|etes) (?:située?s? )?où(?!\p{L})|(?<!\p{L})(?:c'est où|où (?:est|se trouve|se situe)) (?:l['’]|le |la |votre )(?:auto-?école|école|boutique|magasin|entrepôt|siège|agence|bureau|cabinet|clinique|showroom)\b/u },
    { type: 'tracking', phrase: /(?<!\p{L})où (?:est|en est|sont) (?:ma|notre) (?:commande|livraison)\b|(?<!\p{L})où (?:est|en est) (?:la commande|la livraison|le colis|le paquet)\s*(?:[?!.,;]|$)|(?<!\p{L})où (?:est|en est) (?:mon|notre) (?:colis|paquet|envoi)\b|\bstatut de (?:ma|la|notre) commande\b|\bsuivi de (?:ma|mon|notre) (?:commande|colis|livraison)\b|\bsuivre (?:ma|mon) (?:commande|colis)\b/u },
    { type: 'age', phrase: /(?<!\p{L})(?:quel [âa]ge|[âa]ge (?:minimum|minimal|requis|légal|legal)|limite d['’][âa]ge|assez [âa]gée?s?)(?!\p{L})/u },
    { type: 'colour', phrase: /\bquelles? couleurs?\b|\bde quelle couleur\b|\b(?:existe|existent|dispo|disponibles?) en (?:d['’]autres couleurs|plusieurs couleurs|(?:noire?s?|blanc|blanche|blancs|blanches|rouges?|bleue?s?|verte?s?|jaunes?|grise?s?|argent|argentée?s?|dorée?s?|or|cuivre|cuivrée?s?|laiton|bronze|chromée?s?|roses?|violette?s?|orange|marron|beiges?|crème|anthracite|turquoise|bordeaux|kaki)(?!\p{L}))|(?<!\p{L})en (?:noire?s?|blanc|blanche|blancs|blanches|rouges?|bleue?s?|verte?s?|jaunes?|grise?s?|argent|argentée?s?|dorée?s?|or|cuivre|cuivrée?s?|laiton|bronze|chromée?s?|roses?|violette?s?|orange|marron|beiges?|crème|anthracite|turquoise|bordeaux|kaki)\s*[?!.]*$/u },
    {
      type: 'contact',
      phrase:
        /\b(?:vous|te) (?:contacter|joindre)\b|(?<!\p{L})(?:contacter|joindre) (?:le service client|le sav|le support|quelqu(?:'|’)un)|\bparler (?:à|a|avec) (?:quelqu(?:'|’)un|un (?:être )?humain|une personne|un conseiller|une conseillère|un agent|une vraie personne)/u,
    },
  ],
};

/** The kinds of answer `question` (any case) asks for, each once (a kind may have several phrases). */
export function askedAnswerTypes(question: string, language: string): AnswerType[] {
  const asks = ASKS[language];
  if (!asks) return [];
  const lower = question.toLowerCase();
  const found: AnswerType[] = [];
  for (const ask of asks) if (!found.includes(ask.type) && ask.phrase.test(lower)) found.push(ask.type);
  return found;
}

/** The kinds of answer `question` asks for in any language whose asking phrases are known, when its own is not. */
export function askedAnswerTypesInAnyLanguage(question: string): AnswerType[] {
  return Object.keys(ASKS).flatMap((language) => askedAnswerTypes(question, language));
}

/** The kinds of answer about the business itself, whatever else was asked: its address, phone, email and hours. */
export const BUSINESS_DETAILS = ['address', 'phone', 'email', 'hours'] as const satisfies readonly AnswerType[];

const NUMBER_WORD =
  '(?:\\d+(?:[.,]\\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fourteen|thirty|ein(?:e[mnr]?)?|zwei|drei|vier|fünf|sechs|sieben|acht|zehn|zwölf|vierzehn|dreißig|un|une|deux|trois|quatre|cinq|six|sept|huit|dix|douze|quinze|trente)';
const TIME_UNIT =
  '(?:(?:working |business |calendar )?(?:minutes?|hours?|days?|weeks?|months?|years?|mins?|hrs?)|(?:werk|arbeits|kalender)?(?:tage?n?|minuten?|stunden?|wochen?|monate?n?|jahre?n?)|(?:jours?|semaines?|mois|ans|années?|heures?)(?: ouvrés| ouvrables| calendaires)?)';
/** "30 days", "2–4 working days", "a two-year warranty", "14 Tagen", "3 à 5 jours ouvrés", "48 h". */
const DURATION_RE = new RegExp(`(?<![\\p{L}])${NUMBER_WORD}(?:\\s*(?:–|-|to|bis|à|ou|or)\\s*${NUMBER_WORD})?[\\s-]*${TIME_UNIT}(?![\\p{L}])|\\b\\d+\\s*h\\b`, 'iu');
/**
 * "£3.95", "4,95 €", "EUR 20", "$5", "10 euros", "free of charge"/"… are free"/"kostenlos"/"gratuit" (an amount of nothing),
 * and a share of a price or off it: "3,5 % du montant du séjour", "5 % of the order total", "2 %
 * Skonto auf den Warenwert", "10 % discount" — what a record says a thing costs when it costs a
 * share ("l'assurance … coûte combien ?").
 */
const AMOUNT_RE =
  /[£€$]\s?\d|\d(?:[.,]\d+)?\s?(?:€|£|\$|eur\b|euros?\b|gbp\b|usd\b|chf\b|dollars?\b|pounds?\b|francs?\b)|\b(?:free of charge|kostenlos|umsonst|gratuit(?:e|s|es)?)\b|\b(?:is|are) free\b(?! (?:to|from|for|with)\b)|\d\s?%\s*(?:(?:of|on|du|de|des|de la|de l['’]|sur|vom|von|auf|der|den)\s+(?:(?:the|your|le|la|les|votre|vos|den|die|das|dem|ihren?|deinen?|eure[nm]?)\s+)?\p{L}*(?:price|cost|total|amount|order|booking|stay|fare|fee|montant|prix|séjour|sejour|commande|location|réservation|reservation|frais|preis|betrag|wert|gebühr|kosten|miete)\p{L}*|(?:discount|off|rabatt|nachlass|skonto|remise|réduction|reduction|de (?:remise|réduction|reduction))(?!\p{L}))/iu;

/**
 * An age limit: "at least 16 years old", "aged 18 or over", "the age of 13", "over-18s", "ab 16
 * Jahren", "18 Jahre alt", "volljährig", "âgé de 18 ans", "avoir au moins 16 ans", "majeur". Every
 * alternative starts with a digit or a letter, not a look-behind, which made the search ~7× slower
 * on text without one; where a match starts inside a word is checked after (`holdsAgeLimit`).
 */
const AGE_RE =
  /\d{1,2}(?:[\s-]*(?:years?|yrs?)[\s-]+(?:old|of age)|\s+jahre\s+alt)(?!\p{L})|(?:aged?\s+(?:of\s+)?\d|(?:over|under)[\s-]\d{1,2}s(?!\p{L})|(?:ab|unter|über)\s+\d{1,2}\s+jahren(?!\p{L})|im alter (?:von|ab)\s+\d|mindestalter|volljährig|minderjährig|[âa]gée?s?\s+d['’e]\s*(?:au moins\s+|plus de\s+|moins de\s+)?\d{1,2}\s*ans(?!\p{L})|(?:avoir|avez|ayez|ont)\s+(?:au moins\s+|plus de\s+|moins de\s+)?\d{1,2}\s*ans(?!\p{L})|(?:majeure?s?|mineure?s?)(?!\p{L}))/giu;

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether `text` gives an age limit (`AGE_RE`, at the start of a word or number). */
function holdsAgeLimit(text: string): boolean {
  AGE_RE.lastIndex = 0;
  for (let m = AGE_RE.exec(text); m !== null; m = AGE_RE.exec(text)) {
    if (m.index === 0 || !WORD_CHAR.test(text.charAt(m.index - 1))) return true;
    AGE_RE.lastIndex = m.index + 1;
  }
  return false;
}

/**
 * A length given as one: a measure ("183 cm", "105–135 cm", "20 m", "6 ft", '12"'; not "m²" or
 * "m³", an area and a volume, nor "in", also a preposition: "2 in stock") where the text names it a
 * length ("Length: 183 cm", "Packed length", "Schwertlänge", "15 m long", "longueur"). "Burrs: 48 mm"
 * gives a size, not how long the grinder's cable is.
 */
const LENGTH_WORD_RE = /length|länge|longueur|(?<!\p{L})(?:long|lang)(?!\p{L})/iu;
const LENGTH_RE = /\d(?:[.,]\d+)?\s?(?:mm|cm|m|km|ft|feet|foot|inch(?:es)?|met(?:re|er)s?|centimet(?:re|er)s?|millimet(?:re|er)s?|kilomet(?:re|er)s?|zoll|mètres?|centimètres?|millimètres?|″|")(?![\p{L}\p{N}²³])/iu;

/** A temperature: "70-80 °C", "212°F", "90 degrees", "95 Grad", "100 degrés". */
const TEMPERATURE_RE = /\d\s?(?:°\s?[cf](?!\p{L})|degrees?(?!\p{L})|grad(?!\p{L})|degrés?(?!\p{L}))/iu;

/** A speed: "25 km/h", "15 mph", "210 km/h", "100 Mbit/s". */
const SPEED_RE = /\d\s?(?:km\/h|kmh|kph|mph|m\/s|knots?|kn|nœuds?|noeuds?|[kmg]bit\/s|[kmg]bps|[kmg]b\/s)(?![\p{L}])/iu;

/**
 * A time of day: "12:00", "18h30", "1pm", "9.30 am", "10 Uhr", "9.30 Uhr", "12 h", "noon", "midi",
 * "Mitternacht". An hour alone with "h" only up to 23 ("48 h" is a duration).
 */
const TIME_RE =
  /(?<![\p{L}\p{N}])(?:(?:[01]?\d|2[0-3])[:h][0-5]\d(?!\p{N})|(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\p{L})|(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s?(?:uhr|h)(?!\p{L})|(?:noon|midday|midnight|midi|minuit|mitternacht|mittags)(?!\p{L}))/iu;

/** Any number, written with digits: "100 filters", "80 ml", "up to 5 users". */
const QUANTITY_RE = /\p{Nd}/u;

/** A colour named, or the word for colour: "Matte black", "Farbe: Anthrazit", "coloris rouge". */
const COLOUR_RE = new RegExp(
  `(?<!\\p{L})(?:colou?rs?|finish|farben?|couleurs?|coloris|black|white|red|blue|green|yellow|grey|gray|silver|gold|golden|copper|brass|bronze|chrome|pink|purple|violet|orange|brown|beige|cream|navy|teal|turquoise|charcoal|graphite|ivory|burgundy|olive|schwarz|weiß|weiss|rot|blau|grün|gelb|grau|silber|silbern|gold|golden|kupfer|messing|bronze|chrom|rosa|pink|lila|violett|orange|braun|beige|creme|anthrazit|türkis|olivgrün|bordeaux|noire?s?|blanc|blanche|blancs|blanches|rouges?|bleue?s?|verte?s?|jaunes?|grise?s?|argent|argentée?s?|dorée?s?|cuivre|cuivrée?s?|laiton|bronze|chromée?s?|roses?|violette?s?|orange|marron|beiges?|crème|anthracite|turquoise|bordeaux|kaki)(?!\\p{L})`,
  'iu',
);

/** Words naming the kind "speed" in a question, not a topic the answer must share ("What's the top speed?"). */
const SPEED_NAMES: Readonly<Record<string, readonly string[]>> = {
  en: ['speed', 'speeds', 'top', 'max', 'maximum', 'highest', 'average', 'cruising', 'fast'],
  de: ['geschwindigkeit', 'höchstgeschwindigkeit', 'maximalgeschwindigkeit', 'spitzengeschwindigkeit', 'durchschnittsgeschwindigkeit', 'schnell'],
  fr: ['vitesse', 'maximale', 'maximum', 'max', 'pointe', 'moyenne'],
};

/** Words of a question asking for a speed that name the kind, in `language`. */
export function speedNames(language: string): readonly string[] {
  return SPEED_NAMES[language] ?? [];
}

/** Words naming the kind "colour" in a question, not a topic the answer must share ("What colour is it?"). */
const COLOUR_NAMES: Readonly<Record<string, readonly string[]>> = {
  en: ['colour', 'colours', 'color', 'colors', 'finish', 'finishes'],
  de: ['farbe', 'farben'],
  fr: ['couleur', 'couleurs', 'coloris'],
};

/**
 * Words of a question asking for a duration that only ask ("how long", "wie lange", "combien de
 * temps"): a record that says "how long does it take?" answers that about its own topic, not the
 * visitor's ("How long do I have to return something?" is not about delivery).
 */
const DURATION_NAMES: Readonly<Record<string, readonly string[]>> = {
  en: ['long', 'soon', 'quickly', 'fast'],
  de: ['lange', 'lang', 'schnell', 'bald'],
  fr: ['temps'],
};

/** The nouns records name a length with, per language ("Length: 183 cm", "Schwertlänge: 50 cm", "Longueur"). */
const LENGTH_NOUNS: Readonly<Record<string, readonly string[]>> = {
  en: ['length'],
  de: ['länge'],
  fr: ['longueur'],
};

/** The nouns that name a length in `language`. */
export function lengthNouns(language: string): readonly string[] {
  return LENGTH_NOUNS[language] ?? [];
}

/** Words of a question asking for an age limit that only ask ("how old", "what age", "wie alt", "quel âge"). */
const AGE_NAMES: Readonly<Record<string, readonly string[]>> = {
  en: ['age', 'ages', 'aged', 'old'],
  de: ['alt', 'alter', 'mindestalter', 'altersgrenze', 'altersbeschränkung'],
  fr: ['âge', 'age'],
};

/** Words of a question asking for an age limit that name the asking, in `language`. */
export function ageNames(language: string): readonly string[] {
  return AGE_NAMES[language] ?? [];
}

/**
 * Names of currencies, as the tokeniser reads them, per language: records write an amount with a
 * symbol ("200 €", "£40"), which no term holds, and a visitor with the name ("200 Euro", "50
 * dollars"). "pound", "Pfund" and "livre" are left out: they are also a weight and a book.
 */
const CURRENCY_NAMES: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(['euro', 'euros', 'eur', 'dollar', 'dollars', 'usd', 'gbp', 'quid', 'franc', 'francs', 'chf']),
  de: new Set(['euro', 'eur', 'dollar', 'franken', 'chf']),
  fr: new Set(['euro', 'euros', 'eur', 'dollar', 'dollars', 'franc', 'francs', 'chf']),
};

/** Whether a question word (as the tokeniser reads it) names a currency in `language`. */
export function isCurrencyName(surface: string, language: string): boolean {
  return CURRENCY_NAMES[language]?.has(surface) ?? false;
}

/** Words of a question asking for a duration that name the asking, in `language`. */
export function durationNames(language: string): readonly string[] {
  return DURATION_NAMES[language] ?? [];
}

/**
 * Words with which records tell how to follow an order ("a tracking link", "DHL-Sendungsnummer",
 * "numéro de suivi"): what a question asking where an order is meets.
 */
const TRACKING_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['track', 'tracking', 'tracked', 'trace'],
  de: ['sendungsverfolgung', 'sendungsnummer', 'verfolgen', 'verfolgung', 'tracking', 'trackingnummer', 'nachverfolgen'],
  fr: ['suivi', 'suivre', 'tracking'],
};

/** Words of records that tell how to follow an order, in `language`. */
export function trackingWords(language: string): readonly string[] {
  return TRACKING_WORDS[language] ?? [];
}

/** Words of a question asking for a colour that name the kind, in `language`. */
export function colourNames(language: string): readonly string[] {
  return COLOUR_NAMES[language] ?? [];
}

/**
 * The pseudo-terms of the kinds of answer the index counts as words of `text`'s record: the kinds
 * of contact it gives (contact-details.ts) and an age limit. A question asking for one names no
 * topic word to find the record by ("What's your phone number?", "How old do I have to be?").
 */
export function indexedAnswerTermsIn(text: string): readonly string[] {
  const kinds = contactKindsIn(text);
  const age = holdsAgeLimit(text);
  if (kinds.length === 0 && !age) return NO_TERMS;
  return age ? [answerTypeTerm('age'), ...kinds.map(answerTypeTerm)] : kinds.map(answerTypeTerm);
}

const NO_TERMS: readonly string[] = Object.freeze([]);

/** The kinds of answer `text` holds. */
export function answerTypesIn(text: string): AnswerType[] {
  const found: AnswerType[] = [];
  if (DURATION_RE.test(text)) found.push('duration');
  if (LENGTH_RE.test(text) && LENGTH_WORD_RE.test(text)) found.push('length');
  if (AMOUNT_RE.test(text)) found.push('amount');
  if (QUANTITY_RE.test(text)) found.push('quantity');
  if (weightValue(text) !== undefined) found.push('weight');
  if (TEMPERATURE_RE.test(text)) found.push('temperature');
  if (SPEED_RE.test(text)) found.push('speed');
  if (TIME_RE.test(text)) found.push('time');
  if (COLOUR_RE.test(text)) found.push('colour');
  if (holdsAgeLimit(text)) found.push('age');
  found.push(...contactKindsIn(text));
  return found;
}
