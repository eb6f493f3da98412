/**
 * The questions from the answers issue, asked of a shop FAQ uploaded as Markdown, through the
 * real extraction, index and built-in answerer: paraphrases and casual wording must be answered
 * from the right record, names of things the records never mention must be refused, German
 * questions get German refusals, and the owner's fallback message replaces the default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/knowledge/extraction/index.js';
import { ExtractiveAnswerer } from '../../src/knowledge/query/extractive-answerer.js';
import { KnowledgeIndex } from '../../src/knowledge/retrieval/knowledge-index.js';
import { askedAfter, contextualQuery, isFollowUp } from '../../src/knowledge/answering/follow-up.js';
import { splitQuestion } from '../../src/knowledge/answering/split-question.js';
import { germanRelatives } from '../../src/knowledge/language/german-derivations.js';
import { frenchRelatives } from '../../src/knowledge/language/french-verbs.js';
import type { Answer, RetrievedRecord, Turn } from '../../src/knowledge/answering/types.js';

function knowledgeBase(content: string, format: 'md' | 'json' = 'md') {
  const records = extract(new TextEncoder().encode(content), format).records.map((r, i) => ({
    recordId: `r${i + 1}`,
    sourceName: 'faq.md',
    title: r.title ?? null,
    text: r.text,
    kind: r.kind,
  }));
  const index = KnowledgeIndex.build(records);
  const byId = new Map(records.map((r) => [r.recordId, r]));
  const answerer = new ExtractiveAnswerer();
  const ask = (query: string, options: { conversation?: Turn[]; fallbackMessage?: string } = {}): Answer => {
    // As the query service does: a follow-up is searched with the previous question's topic.
    const retrieved: RetrievedRecord[] = index.search(contextualQuery(query, options.conversation), 6).map((h) => ({ ...(byId.get(h.recordId) as RetrievedRecord), score: h.score }));
    return answerer.complete({ query, botName: 'Shop', retrieved, stats: index, ...options });
  };
  const titleOf = (a: Answer) => a.sources.map((s) => byId.get(s.recordId)?.title);
  return { ask, titleOf, index, records };
}

/** The knowledge base of one of the evaluation's sets, from its file (`<set>/<file>`, JSON or Markdown by its name). */
function setKnowledgeBase(file: string) {
  return knowledgeBase(readFileSync(new URL(`../../eval/sets/${file}`, import.meta.url), 'utf8'), file.endsWith('.json') ? 'json' : 'md');
}

/** Whether each of `questions`, asked after `conversation`, is read as a follow-up (`followUp`) or as standing alone. */
function expectFollowUps(conversation: readonly Turn[], questions: readonly string[], followUp: boolean): void {
  for (const q of questions) expect(isFollowUp(q, conversation), q).toBe(followUp);
}

/** A JSON Q&A knowledge base of `[question, answer]` pairs. */
function qaKnowledgeBase(pairs: readonly [string, string][]) {
  return knowledgeBase(JSON.stringify(pairs.map(([question, answer]) => ({ question, answer }))), 'json');
}

const shop = knowledgeBase(`# Shop FAQ

## Returns
Returns are accepted within 30 days of delivery. Items must be unused and in their original packaging; we refund the purchase price to your original payment method.

## Shipping
We ship to Canada and Mexico as well as within the United States. Orders arrive in 3 to 7 business days.

## Warranty
Every kettle carries a two-year warranty against manufacturing defects.

## Payment
We accept Visa, Mastercard and PayPal. Payment is taken when your order ships.
`);

describe('visitor questions from the answers issue', () => {
  const cases: [string, string, string][] = [
    ['How long do I have to return an item?', 'Shop FAQ › Returns', '30 days'],
    ['What is the return policy?', 'Shop FAQ › Returns', '30 days'],
    ['How long is the warranty?', 'Shop FAQ › Warranty', 'two-year warranty'],
    ['Do you deliver to Mexico?', 'Shop FAQ › Shipping', 'Mexico'],
    ['Which cards do you take?', 'Shop FAQ › Payment', 'Visa, Mastercard and PayPal'],
    ['can i pay cash', 'Shop FAQ › Payment', 'Visa, Mastercard and PayPal'],
  ];
  for (const [question, title, fact] of cases) {
    it(`answers "${question}" from ${title}`, () => {
      const a = shop.ask(question);
      expect(a.grounded).toBe(true);
      expect(shop.titleOf(a)[0]).toBe(title);
      expect(a.answer).toContain(fact);
    });
  }

  it('answers "which cards" from the networks a payment answer names, with no other word of the question in it', () => {
    // The issue's shop, worded as shops word it: no "card", no "take" (only shipping "takes" a while).
    const kettles = knowledgeBase(`# Kettle shop

## Shipping
We ship to Canada and Mexico. Standard delivery takes 3 to 5 working days.

## Payment
We accept Visa, Mastercard, American Express and PayPal. We do not accept cash or cheques.
`);
    for (const question of ['Which cards do you take?', 'Do you take Amex?', 'Can I pay by debit card?']) {
      const a = kettles.ask(question);
      expect(a.grounded, question).toBe(true);
      expect(kettles.titleOf(a)[0], question).toBe('Kettle shop › Payment');
    }
    // A card that is not a way to pay is not met with the networks.
    const gift = kettles.index.expand('Do you sell gift cards?').words.find((w) => w.surface === 'cards');
    expect(gift?.matches.map((m) => m.term) ?? []).not.toContain('visa');
  });

  it('does not answer from a record that shares only a number with the question', () => {
    const faq = knowledgeBase(
      JSON.stringify([
        { question: 'What is your return policy?', answer: 'Unused items can be returned within 30 days of delivery for a full refund.' },
        { question: 'Where do you ship?', answer: 'We ship within the United States, Canada and Mexico. Delivery usually takes 3 to 5 business days.' },
      ]),
      'json',
    );
    // "send", "back" and "weeks" are ordinary words these records do not use; "3" is in the shipping answer.
    expect(faq.ask('can I send something back after 3 weeks').grounded).toBe(false);
    expect(faq.ask('Do you ship to Canada?').grounded).toBe(true);
  });

  it('does not answer when all it covers is a word most records share', () => {
    // A bike rental's help centre: "ride" and "bike" are in most records, "register" and "age" are
    // too common in English to weigh. Covering "every informative word" is then covering "ride".
    const rental = knowledgeBase(`# Help

### How do I rent a bike?
Open the app, tap a bike on the map and scan the QR code on its handlebar. You need a verified account and a payment card before your first ride.

### How much does a ride cost?
Unlocking a bike costs €1, then each minute costs €0.20. A day pass costs €15 and includes unlimited rides of up to 45 minutes each.

### How do I end my ride?
Park the bike inside a parking zone, close the lock and wait for the confirmation sound. Parking outside a zone costs a €10 fee.

### What happens if the battery runs out during my ride?
The motor switches off, but you can keep pedalling like a normal bike. End the ride in a parking zone as usual.

### Can I pause my ride?
Tap "Pause" to lock the bike while you stop. Paused minutes cost €0.10 per minute.

### Do I have to wear a helmet?
Helmets are not required by law, but we strongly recommend wearing one.
`);
    expect(rental.ask('do i need to register before riding').grounded).toBe(false);
    const pass = rental.ask('how much is a day pass?');
    expect(pass.grounded).toBe(true);
    expect(pass.answer).toContain('€15');
  });

  it('does not take "use" for the "us" of "contact us"', () => {
    const help = knowledgeBase(`# Help

## Contact
Write to us at help@shop.example or call us on 020 7946 0000. Tell us your order number and we answer within a day.

## Gift vouchers
Enter the voucher code at checkout. Vouchers are valid for two years and cannot be exchanged for cash.

## Delivery
Orders arrive in 3 to 5 working days. Delivery is free over £40.
`);
    // Porter stems "use" to "us": the question met every record that says "us".
    expect(help.ask('Can I use PayPal?').grounded).toBe(false);
    const voucher = help.ask('How do I use a gift voucher?');
    expect(help.titleOf(voucher)).toEqual(['Help › Gift vouchers']);
  });

  it('answers "how old do I have to be" from the record that gives an age limit, which never says "age" or "old" alone', () => {
    const rental = knowledgeBase(`# Help

### How do I rent a bike?
Open the app, tap a bike on the map and scan the QR code on its handlebar.

### How much does a ride cost?
Unlocking a bike costs €1, then each minute costs €0.20.

### How do I end my ride?
Park the bike inside a parking zone and close the lock. Parking outside a zone costs a €10 fee.

### What happens if the battery runs out during my ride?
The motor switches off, but you can keep pedalling like a normal bike.

### Do I have to wear a helmet?
Helmets are not required by law, but we strongly recommend wearing one. Riders must be at least 16 years old.

### I left something on a bike. How do I get it back?
Items left on our bikes are kept for 30 days. Report a lost item in the app under Help › Lost property.
`);
    for (const question of ['wat age do u have to be to ride', 'How old do I need to be?', 'Is there a minimum age?']) {
      const a = rental.ask(question);
      expect(a.grounded, question).toBe(true);
      expect(rental.titleOf(a)[0], question).toBe('Do I have to wear a helmet?');
      expect(a.answer, question).toContain('at least 16 years old');
    }
  });

  it('refuses names of things the records never mention', () => {
    for (const q of ['Do you ship to Mars?', 'Who is your CEO?', 'Do you sell oat milk?']) expect(shop.ask(q).grounded, q).toBe(false);
  });

  it('refuses a question that names by an acronym what no record has, however well its other words are met', () => {
    const cookware = qaKnowledgeBase([
      ['Can pans go in the dishwasher?', 'Stainless-steel pans are dishwasher safe. Non-stick pans can go in the dishwasher, but washing them by hand makes the coating last longer.'],
      ['Which hobs do your pans work on?', 'Every pan works on gas and electric hobs; the stainless-steel and cast-iron pans also work on induction.'],
      ['Where do you ship?', 'We ship within the UK and to the USA.'],
    ]);
    for (const q of ['Are your non-stick pans PFAS-free?', 'Are the non-stick pans BPA free and dishwasher safe?']) expect(cookware.ask(q).grounded, q).toBe(false);
    // Acronyms met in some form are not unknown names: the USA as a place, words typed with caps lock.
    expect(cookware.ask('Do you ship to the USA?').grounded).toBe(true);
    expect(cookware.ask('CAN NON-STICK PANS GO IN THE DISHWASHER?').grounded).toBe(true);
    // Chat words in capitals are spelled out first ("BTW", "ASAP").
    const btw = cookware.ask('BTW can the non-stick pans go in the dishwasher?');
    expect(btw.grounded).toBe(true);
    expect(btw.answer).toContain('Non-stick pans can go in the dishwasher');
  });

  it('corrects misspelt words against the knowledge base before answering', () => {
    const a = shop.ask('how long is the warrenty on a kettle');
    expect(a.grounded).toBe(true);
    expect(a.answer).toContain('two-year warranty');
  });

  it('answers a follow-up in the context of the previous question', () => {
    const conversation: Turn[] = [
      { role: 'user', content: 'Do you ship to Mexico?' },
      { role: 'assistant', content: 'We ship to Canada and Mexico as well as within the United States.' },
    ];
    const a = shop.ask('And how long does that take?', { conversation });
    expect(a.grounded).toBe(true);
    expect(shop.titleOf(a)[0]).toBe('Shop FAQ › Shipping');
    expect(a.answer).toContain('3 to 7 business days');
  });

  it('answers "when does it leave you?" with how long dispatch takes', () => {
    // The kitchen shop (eval/sets/shop-faq-en): refused, since no word of the question but "buy" is the record's.
    const kitchen = setKnowledgeBase('shop-faq-en/faq.json');
    const a = kitchen.ask('If I buy something on a Sunday evening, when does it actually leave you?');
    expect(kitchen.titleOf(a)[0]).toBe('When will my order be dispatched?');
    expect(a.answer).toContain('next working day');
  });

  it('answers "does that cost anything?" after a question from the record that says it is free, in German too', () => {
    const flat = knowledgeBase(`# Ferienwohnung

## Haben Sie Ausstattung für Babys?
Auf Anfrage stellen wir Ihnen kostenlos ein Reisebett und einen Hochstuhl in die Wohnung.

## Was kostet die Endreinigung?
Die Endreinigung kostet 65 € pro Aufenthalt.
`);
    const conversation: Turn[] = [
      { role: 'user', content: 'Habt ihr ein Reisebett für unser Baby?' },
      { role: 'assistant', content: 'Auf Anfrage stellen wir Ihnen kostenlos ein Reisebett und einen Hochstuhl in die Wohnung.' },
    ];
    const a = flat.ask('kostet das extra?', { conversation });
    expect(a.grounded).toBe(true);
    expect(flat.titleOf(a)).toEqual(['Haben Sie Ausstattung für Babys?']);
    expect(a.answer).toContain('kostenlos');
  });

  it('keeps the topic through a chain of follow-ups, back to the question that stood on its own', () => {
    const shipping = knowledgeBase(`# Help

## UK delivery
Standard UK delivery costs £3.95 and takes 2–4 working days.

## Delivery to Canada
Tracked delivery to Canada costs £16.95 and usually arrives in 5–10 working days.
`);
    const conversation: Turn[] = [
      { role: 'user', content: 'Do you ship to Canada?' },
      { role: 'assistant', content: 'Tracked delivery to Canada costs £16.95 and usually arrives in 5–10 working days. [1]' },
      { role: 'user', content: 'How much is it?' },
      { role: 'assistant', content: 'Tracked delivery to Canada costs £16.95 and usually arrives in 5–10 working days. [1]' },
    ];
    const a = shipping.ask('And how long does it take?', { conversation });
    expect(a.grounded).toBe(true);
    expect(shipping.titleOf(a)).toEqual(['Help › Delivery to Canada']);
    expect(contextualQuery('And how long does it take?', conversation)).toBe('Do you ship to Canada? How much is it? And how long does it take?');
    // A question that stands on its own starts a new topic, and ends the chain.
    const later: Turn[] = [...conversation, { role: 'user', content: 'What does standard UK delivery cost?' }];
    expect(contextualQuery('And how long?', later)).toBe('What does standard UK delivery cost? And how long?');
  });

  it("names what a follow-up was asked after for the owner: the chain it leans on, its latest 500 characters cut at a word", () => {
    const conversation: Turn[] = [
      { role: 'user', content: 'Do you ship to Canada?' },
      { role: 'assistant', content: 'Yes. [1]' },
      { role: 'user', content: 'How much is it?' },
      { role: 'assistant', content: '£16.95. [1]' },
    ];
    expect(askedAfter('And how long does it take?', conversation)).toBe('Do you ship to Canada? How much is it?');
    expect(askedAfter('What does standard UK delivery cost?', conversation)).toBeUndefined();
    expect(askedAfter('And how long?', [])).toBeUndefined();
    const long = `Do you ship ${'heavy parcels '.repeat(60)}to Canada?`;
    const kept = askedAfter('And how long?', [{ role: 'user', content: long }]) ?? '';
    expect(kept.length).toBeLessThanOrEqual(500);
    expect(kept.startsWith('…')).toBe(true);
    // The latest part, from the start of a word.
    expect(long.endsWith(kept.slice(1))).toBe(true);
    expect(long[long.length - kept.length]).toBe(' ');
  });

  it('asks a follow-up that names another country about that country, not about both', () => {
    const countries = knowledgeBase(`# Versand

## Liefert ihr nach Österreich?
Ja. Der Versand nach Österreich kostet 9,90 € und dauert 3 bis 5 Werktage.

## Liefert ihr in die Schweiz?
Ja. Der Versand in die Schweiz kostet 19,90 € und dauert 4 bis 7 Werktage.
`);
    const conversation: Turn[] = [
      { role: 'user', content: 'Liefert ihr nach Österreich?' },
      { role: 'assistant', content: 'Der Versand nach Österreich kostet 9,90 € und dauert 3 bis 5 Werktage. [1]' },
      { role: 'user', content: 'Was kostet das?' },
      { role: 'assistant', content: 'Der Versand nach Österreich kostet 9,90 € und dauert 3 bis 5 Werktage. [1]' },
    ];
    const a = countries.ask('Und in die Schweiz?', { conversation });
    expect(a.grounded).toBe(true);
    expect(countries.titleOf(a)).toEqual(['Liefert ihr in die Schweiz?']);
  });

  it('takes French questions that point back with "ça" or "là" for follow-ups, whatever the spacing of "?"', () => {
    const conversation: Turn[] = [{ role: 'user', content: 'Vous livrez en Belgique ?' }];
    expect(isFollowUp('Ça coûte combien ?', conversation)).toBe(true);
    expect(isFollowUp('Et le délai pour là-bas ?', conversation)).toBe(true);
    expect(isFollowUp('Quels moyens de paiement acceptez-vous pour les commandes en ligne ?', conversation)).toBe(false);
  });

  it('takes French and German subject pronouns for pointing back, but not the impersonal "il" of "il y a" or "faut-il"', () => {
    const conversation: Turn[] = [{ role: 'user', content: 'Vous vendez des cartes cadeaux ?' }];
    expectFollowUps(conversation, ['elles sont valables combien de temps ?', 'Elle coûte combien ?', 'ils sont bio aussi ?', 'Il est livré en combien de temps ?', 'Coûte-t-il cher ?'], true);
    expectFollowUps(conversation, ['Il y a un parking près de la boutique ?', 'Y a-t-il un magasin à Lyon ?', 'Faut-il créer un compte pour commander ?', 'Est-il possible de payer par chèque ?'], false);
    const german: Turn[] = [{ role: 'user', content: 'Was kostet ein Geschenkgutschein bei euch?' }];
    expect(isFollowUp('Wie lange ist er gültig?', german)).toBe(true);
    expect(isFollowUp('Wie lange ist ein Geschenkgutschein gültig?', german)).toBe(false);
    // Answered from the gift cards asked of before, not from the password link that is "valable 24 heures".
    const tea = setKnowledgeBase('shop-faq-fr/faq.md');
    const valid = tea.ask('elles sont valables combien de temps ?', { conversation: [...conversation, { role: 'assistant', content: 'Oui, nous proposons des e-cartes cadeaux de 20 €, 40 €, 60 € ou 100 €. [1]' }] });
    expect(tea.titleOf(valid)).toEqual(['Vendez-vous des cartes cadeaux ?']);
    expect(valid.answer).toContain('valables 1 an');
  });

  it('refuses a follow-up none of whose words the records chosen again use ("et des vélos ?" after canoe hire), and answers one they do', () => {
    const campsite = qaKnowledgeBase([
      ['Peut-on louer des canoës ?', 'Oui, notre partenaire Ardèche Canoë loue des canoës et des kayaks à la demi-journée (24 € par personne) ou à la journée (36 €), navette comprise.'],
      ['À quelle heure ferme la piscine ?', 'La piscine est ouverte de 10 h à 19 h, de mai à septembre.'],
      ['Les chiens sont-ils acceptés ?', 'Les chiens sont acceptés en laisse, 3 € par nuit, sauf en mobil-home.'],
    ]);
    const conversation: Turn[] = [
      { role: 'user', content: 'Peut-on louer des canoës ?' },
      { role: 'assistant', content: 'Oui, notre partenaire Ardèche Canoë loue des canoës et des kayaks à la demi-journée (24 € par personne). [1]' },
    ];
    // "vélos" is too common a word to count as a topic of its own; still, no record chosen uses it.
    expect(campsite.ask('et des vélos ?', { conversation })).toMatchObject({ grounded: false, sources: [] });
    const price = campsite.ask('et ça coûte combien ?', { conversation });
    expect(campsite.titleOf(price)).toEqual(['Peut-on louer des canoës ?']);
    expect(price.answer).toContain('24 €');
  });

  it('answers a follow-up that turns to a topic of its own from the record titled with it ("And what about the warranty?" after returns)', () => {
    const bikes = knowledgeBase('# Returns\n\nYou can return any bike within 30 days of delivery for a full refund.\n\n# Shipping\n\nOrders ship from our warehouse in Bremen within 2 business days.\n\n# Warranty\n\nEvery frame carries a lifetime warranty against manufacturing defects.\n\n# Gift cards\n\nGift cards come in 25, 50 and 100 euros.\n');
    const conversation: Turn[] = [
      { role: 'user', content: 'How long do I have to return a bike?' },
      { role: 'assistant', content: 'You can return any bike within 30 days of delivery for a full refund. [1]' },
    ];
    // Searched with the returns question, the returns record leads ("return", "bike", a duration);
    // it says nothing of a warranty, so the follow-up is asked alone and the warranty answers it.
    const warranty = bikes.ask('And what about the warranty?', { conversation });
    expect(bikes.titleOf(warranty)).toEqual(['Warranty']);
    expect(warranty.answer).toContain('lifetime warranty');
    expect(bikes.titleOf(bikes.ask('and shipping?', { conversation }))).toEqual(['Shipping']);
    // A plural aside: "a gift card" is the "Gift cards" section.
    expect(bikes.titleOf(bikes.ask('and what about a gift card?', { conversation }))).toEqual(['Gift cards']);
    // Asked alone, a follow-up no record's title names is refused, as before.
    expect(bikes.ask('And can I pay in bitcoin?', { conversation })).toMatchObject({ grounded: false });
    expect(bikes.ask('What about gift wrapping?', { conversation })).toMatchObject({ grounded: false });
  });

  it('answers a follow-up whose earlier question has an inflected common word ("clipped"), not a rare one', () => {
    // The bike hire (eval/sets/help-questions-en): "clipped", unlisted, weighed as the name of something the records never mention.
    const bikes = setKnowledgeBase('help-questions-en/help-centre.md');
    const earlier = 'I think I left my phone holder clipped to one of your bikes';
    const first = bikes.ask(earlier);
    const kept = bikes.ask('how long do you keep stuff like that?', {
      conversation: [
        { role: 'user', content: earlier },
        { role: 'assistant', content: first.answer },
      ],
    });
    expect(kept.answer).toContain('30 days');
  });

  it('takes a German "da" inside a short question as pointing back, not one at its end', () => {
    const conversation: Turn[] = [{ role: 'user', content: 'Was kostet bei euch ein Abendkurs Spanisch?' }];
    expectFollowUps(conversation, ["gibt's da was günstiger für Studis?", 'Was kostet da das Lehrbuch?'], true);
    expectFollowUps(conversation, ['Ist am Sonntag jemand da?', 'Seid ihr im August überhaupt da?'], false);
    // The language school (eval/sets/language-school-de) writes "Studierende", the visitor "Studis".
    const school = setKnowledgeBase('language-school-de/faq.json');
    const evening = school.ask(conversation[0]?.content ?? '');
    const students = school.ask("gibt's da was günstiger für Studis?", { conversation: [...conversation, { role: 'assistant', content: evening.answer }] });
    expect(students.grounded).toBe(true);
    expect(students.answer).toContain('10 % Rabatt');
  });

  it('takes a short question that asks for something "instead" as a follow-up, and meets "monthly" with "a month"', () => {
    const earlier = 'how much does it cost to hire a towel?';
    const conversation: Turn[] = [{ role: 'user', content: earlier }];
    expectFollowUps(conversation, ['is there a monthly option instead?', 'Can I pay by card instead?', 'Gibt es stattdessen eine Monatskarte?', 'Je peux payer par virement à la place ?'], true);
    // The gym (eval/sets/fitness-club-en): "£6 a month" answers a monthly option. Was refused: read
    // alone, and "monthly" (stem "monthli") met no word of the towel record.
    const gym = setKnowledgeBase('fitness-club-en/help-centre.md');
    const towels = gym.ask(earlier);
    const monthly = gym.ask('is there a monthly option instead?', { conversation: [...conversation, { role: 'assistant', content: towels.answer }] });
    expect(monthly.grounded).toBe(true);
    expect(monthly.answer).toContain('£6 a month');
    // In German, with its umlauts: "wöchentlich" meets "pro Woche".
    const club = knowledgeBase(`# Verein

## Kursgebühren
Der Yogakurs kostet 12 € pro Woche oder 40 € im Monat.

## Anfahrt
Die Halle liegt am Bahnhof, Parkplätze gibt es hinter dem Haus.
`);
    const weekly = club.ask('Kann ich den Yogakurs auch wöchentlich bezahlen?');
    expect(weekly.grounded).toBe(true);
    expect(weekly.answer).toContain('12 € pro Woche');
  });

  it('takes a short question for the business\'s address, phone or hours, or whether something exists, as a question of its own', () => {
    const conversation: Turn[] = [{ role: 'user', content: 'Do you take cards?' }];
    expectFollowUps(conversation, ["What's your address?", 'Opening hours?', 'Öffnungszeiten?', 'Votre numéro de téléphone ?', 'Is there a student discount?', 'Gibt es einen Rabatt für Studenten?'], false);
    expectFollowUps(conversation, ['And your address?', 'When are you open there?', 'Is there a fee for that?', 'Gibt es dort Parkplätze?', 'Price?'], true);
    // Was read with the cards question and answered with the payment methods (eval/mid-conversation.ts).
    const clinic = setKnowledgeBase('clinic-faq-en/faq.json');
    const cards = clinic.ask('Do you take cards?');
    const address = clinic.ask("What's your address?", { conversation: [...conversation, { role: 'assistant', content: cards.answer }] });
    expect(clinic.titleOf(address)).toEqual(['Where are you located?']);
  });

  it('takes neither the "ce" of "est-ce" nor a French "En" starting a question for a follow-up; Dutch "En" still leads one', () => {
    const conversation: Turn[] = [{ role: 'user', content: "Quel est le prix d'une semaine dans un mobil-home ?" }];
    expectFollowUps(conversation, ["Est-ce qu'on peut vous régler en chèques vacances ?", "Qu'est-ce qui est compris dans le prix ?", 'En général, il faut réserver combien de temps avant ?', 'En plus du prix, il y a une taxe de séjour ?'], false);
    expectFollowUps(conversation, ['Ce prix comprend l’électricité ?', 'Et pour deux personnes ?', 'Ça comprend le ménage ?'], true);
    const dutch: Turn[] = [{ role: 'user', content: 'Verzenden jullie naar België?' }];
    expect(isFollowUp('En hoeveel kost dat?', dutch)).toBe(true);
    expect(isFollowUp('En de levertijd?', dutch)).toBe(true);
  });

  it('takes "one" that stands for what the question names itself as no pointer back: "Which of your grinders is the cheapest one?"', () => {
    const conversation: Turn[] = [{ role: 'user', content: 'Does the Arden tamper fit a 58mm basket?' }];
    expectFollowUps(conversation, ['Which of your grinders is the cheapest one?', 'Which grinder is the cheapest one?', 'What is the lightest one among the tents?'], false);
    expectFollowUps(conversation, ['Which one is the cheapest?', 'Is the large one dishwasher safe?', 'Do you have a cheaper one?', 'Which of these is the cheapest one?', 'And the 51 mm one?'], true);
    // Was read with the tamper question and refused (eval/mid-conversation.ts, tuning half).
    const coffee = setKnowledgeBase('catalogue-en/catalogue.json');
    const tamper = coffee.ask('Does the Arden tamper fit a 58mm basket?');
    const cheapest = coffee.ask('Which of your grinders is the cheapest one?', { conversation: [...conversation, { role: 'assistant', content: tamper.answer }] });
    expect(coffee.titleOf(cheapest)).toEqual(['Fellside Hand Grinder']);
  });

  it('takes a German article standing alone at the end for a pronoun: "Wie schwer ist der?" is about the mower asked of before', () => {
    const conversation: Turn[] = [{ role: 'user', content: 'Habt ihr einen Akku-Rasenmäher?' }];
    expect(isFollowUp('Wie schwer ist der?', conversation)).toBe(true);
    expect(isFollowUp('Was kostet die?', conversation)).toBe(true);
    expect(isFollowUp('Wie schwer ist der Spindelmäher im Vergleich?', conversation)).toBe(false);
    // German adverbs that point back ("damit", "dabei", "rein" for "hinein").
    expectFollowUps(conversation, ['Wie viel Liter passen rein?', 'Ist ein Akku dabei?', 'Kann ich damit Hecken schneiden?'], true);
    const garden = setKnowledgeBase('garden-catalogue-de/catalogue.json');
    const weight = garden.ask('Wie schwer ist der?', { conversation });
    expect(weight.answer).toMatch(/^Lindner Akku-Rasenmäher RM 36-37 .*gewicht: 15,8 kg/);
  });

  it('answers "And the E48?" about the E48 alone, not also about the grinder asked of before', () => {
    const coffee = setKnowledgeBase('catalogue-en/catalogue.json');
    const conversation: Turn[] = [
      { role: 'user', content: 'Do you sell a hand grinder?' },
      { role: 'assistant', content: 'Fellside Hand Grinder (£129) [1]' },
      { role: 'user', content: 'How heavy is it?' },
      { role: 'assistant', content: 'Fellside Hand Grinder (£129) — weight: 620 g [1]' },
    ];
    const e48 = coffee.ask('And the E48?', { conversation });
    expect(coffee.titleOf(e48)).toEqual(['Fellside E48 Electric Grinder']);
    expect(e48.answer).toContain('weight: 3.1 kg');
    // By the product's name: the Kestrel 2's "1.9 kg" holds a "1", its name does not.
    const outdoor = setKnowledgeBase('outdoor-catalogue-en/catalogue.json');
    const tents: Turn[] = [
      { role: 'user', content: 'Tell me about the Kestrel 2' },
      { role: 'assistant', content: 'Kestrel 2 Tent (£249) [1]' },
      { role: 'user', content: 'how heavy?' },
      { role: 'assistant', content: 'Kestrel 2 Tent (£249) — weight: 1.9 kg [1]' },
    ];
    expect(outdoor.titleOf(outdoor.ask('and the Kestrel 1?', { conversation: tents }))).toEqual(['Kestrel 1 Tent']);
  });

  /** The conversation a widget sends after asking `questions` in turn: each with the answer it got. */
  function conversationAfter(kb: ReturnType<typeof setKnowledgeBase>, ...questions: string[]): Turn[] {
    const turns: Turn[] = [];
    for (const question of questions) {
      const answer = kb.ask(question, turns.length > 0 ? { conversation: [...turns] } : {});
      turns.push({ role: 'user', content: question }, { role: 'assistant', content: answer.answer.replace(/\s*\[\d+\]/gu, '') });
    }
    return turns;
  }

  it('answers a follow-up about the product the last answer named, unless it names another', () => {
    const coffee = setKnowledgeBase('catalogue-en/catalogue.json');
    // The cups say nothing of a microwave; the tumblers' "microwave safe: no" is about other cups.
    const cups = conversationAfter(coffee, 'Can the espresso cups go in the dishwasher?');
    expect(cups[1]?.content).toMatch(/^Espresso Cups with Saucers/);
    const cupsMicrowave = coffee.ask('and in the microwave?', { conversation: cups });
    expect(cupsMicrowave.grounded, cupsMicrowave.answer).toBe(false);
    const tumblers = conversationAfter(coffee, 'Can the glass tumblers go in the dishwasher?');
    const tumblersMicrowave = coffee.ask('and in the microwave?', { conversation: tumblers });
    expect(coffee.titleOf(tumblersMicrowave)).toEqual(['Double-Walled Glass Tumblers (Set of 2)']);
    expect(tumblersMicrowave.answer).toContain('microwave safe: no');
    // A word of another product's name switches to it.
    const jugs = conversationAfter(coffee, 'How much is the small milk jug?');
    expect(coffee.titleOf(coffee.ask('and the large one?', { conversation: jugs }))).toEqual(['Milk Jug – Large']);
    // The sleeping bags are not the Kestrel 2, whose "sleeps: 2 people" meets "sleeping".
    const outdoor = setKnowledgeBase('outdoor-catalogue-en/catalogue.json');
    const tent = conversationAfter(outdoor, "What's the warranty on the Kestrel 2?");
    const bags = outdoor.ask('And on the sleeping bags?', { conversation: tent });
    expect(bags.grounded, bags.answer).toBe(false);
  });

  it('refuses a follow-up whose product names nothing it asks, instead of quoting the product for the earlier question', () => {
    const coffee = setKnowledgeBase('catalogue-en/catalogue.json');
    const box = conversationAfter(coffee, 'How much is the knock box?');
    expect(box[1]?.content).toMatch(/^Knock Box \(£29\)/);
    // No line of the knock box says anything of a warranty: quoting its price again answers nothing.
    const warranty = coffee.ask("what's the warranty on it?", { conversation: box });
    expect(warranty.grounded, warranty.answer).toBe(false);
    // What it does say is answered, by a word ("pucks") or by the kind of answer asked for.
    expect(coffee.ask('how many pucks does it hold?', { conversation: box }).answer).toContain('about 15 pucks');
    const outdoor = setKnowledgeBase('outdoor-catalogue-en/catalogue.json');
    const tent = conversationAfter(outdoor, 'Is the Tarnside 4 family tent in stock?');
    expect(outdoor.ask('ok when will it be back?', { conversation: tent }).grounded).toBe(false);
  });

  it('quotes one record when it answers the whole question', () => {
    expect(shop.ask('How long is the warranty on a kettle?').sources).toHaveLength(1);
  });

  it('answers each part of a two-part question with its own citation', () => {
    const a = shop.ask('How long is the kettle warranty, and which cards do you accept?');
    expect(shop.titleOf(a)).toEqual(['Shop FAQ › Warranty', 'Shop FAQ › Payment']);
    expect(a.answer).toMatch(/two-year warranty.*\[1\].*PayPal.*\[2\]/s);
  });

  it('reads a statement after a question as its context, not as a question of its own', () => {
    expect(splitQuestion('Are you SOC 2 certified? Our security team is asking.')).toEqual(['Are you SOC 2 certified? Our security team is asking.']);
    expect(splitQuestion('Do you ship to Canada? And can I pay with PayPal?')).toEqual(['Do you ship to Canada?', 'And can I pay with PayPal?']);
    // A question word ending in an accented letter opens a question too (a \b after "où" never matched).
    expect(splitQuestion('Combien coûte la livraison et où se trouve le point relais ?')).toEqual(['Combien coûte la livraison', 'où se trouve le point relais ?']);
    expect(splitQuestion('Vous livrez en Suisse ? Où est mon colis')).toEqual(['Vous livrez en Suisse ?', 'Où est mon colis']);
    // Answered on its own, the statement shares "kettle" with the warranty record and got its sentence.
    const a = shop.ask('Do you offer gift wrapping? The kettle is a present for my mother.');
    expect(a.grounded).toBe(false);
  });

  it('reads "how long" and "how much" as asking for a duration or an amount, which the answer need not name', () => {
    // "long" is a word of these records too (the cable), yet not of the answer.
    const kettles = knowledgeBase(`# Kettle shop

## Returns
Returns are accepted within 30 days of delivery, unused and in the original box.

## Cable
The power cable is long enough for most kitchens: it measures 1.2 metres.

## How much is delivery and how long does it take?
Delivery is free on orders over 50 euros; below that it is 4.95 euros. Parcels arrive in 2 to 4 working days.

## Payment
We accept Visa, Mastercard and PayPal.
`);
    for (const question of ['how long do i have to retrun somthing', 'how long do i have to return something', 'How long do I have for returns?']) {
      const returns = kettles.ask(question);
      expect(returns.grounded, question).toBe(true);
      expect(kettles.titleOf(returns)[0], question).toBe('Kettle shop › Returns');
      expect(returns.answer).toContain('30 days');
    }
    const charges = kettles.ask('how much do you charge me for delivery');
    expect(kettles.titleOf(charges)[0]).toBe('How much is delivery and how long does it take?');
    // Still no answer when the records hold none of the thing asked about.
    expect(kettles.ask('How long does shipping to Japan take?').grounded).toBe(false);
  });

  it("replaces the default refusal with the owner's message", () => {
    expect(shop.ask('Do you ship to Mars?', { fallbackMessage: 'Ask us at help@shop.example' }).answer).toBe('Ask us at help@shop.example');
  });
});

const german = knowledgeBase(`# Häufige Fragen

## Rücksendungen
Du kannst Artikel innerhalb von 30 Tagen nach Erhalt kostenlos zurückschicken. Die Erstattung erfolgt innerhalb von 5 Werktagen.

## Versand
Wir liefern nach Deutschland, Österreich und in die Schweiz. Die Lieferzeit beträgt 2 bis 4 Werktage, die Versandkosten betragen 4,90 Euro.

## Zahlung
Wir akzeptieren PayPal, Kreditkarte und Kauf auf Rechnung.
`);

/** A German FAQ that writes "Versandkosten" in one record and "Der Versand … kostet" in another. */
const shippingFaq = () =>
  knowledgeBase(
    JSON.stringify([
      { question: 'Wie hoch sind die Versandkosten innerhalb Deutschlands?', answer: 'Innerhalb Deutschlands versenden wir mit DHL für pauschal 4,95 €.' },
      { question: 'Liefert ihr auch nach Österreich?', answer: 'Ja. Der Versand nach Österreich kostet 9,90 €, die Lieferzeit beträgt 3 bis 5 Werktage.' },
      { question: 'Wie lange dauert die Lieferung?', answer: 'Die Zustellung dauert 1 bis 2 Werktage.' },
    ]),
    'json',
  );

describe('German knowledge base', () => {
  it('is analysed in German', () => {
    expect(german.index.language).toBe('de');
  });

  it('answers German paraphrases in German from the right record', () => {
    const a = german.ask('Wie lange dauert die Lieferung nach Österreich?');
    expect(a.grounded).toBe(true);
    expect(german.titleOf(a)[0]).toBe('Häufige Fragen › Versand');
    expect(a.answer).toContain('2 bis 4 Werktage');
    const b = german.ask('Nehmt ihr Kreditkarten?');
    expect(german.titleOf(b)[0]).toBe('Häufige Fragen › Zahlung');
  });

  it('does not let an ordinary word of written German that the records do not use veto the answer ("derzeit", "aktuell")', () => {
    for (const question of ['Wie lange dauert die Lieferung nach Österreich derzeit?', 'Wie lange dauert die Lieferung nach Österreich aktuell ungefähr?']) {
      const a = german.ask(question);
      expect(a.grounded, question).toBe(true);
      expect(german.titleOf(a)[0], question).toBe('Häufige Fragen › Versand');
    }
  });

  it('answers a Q&A record’s own question from that record, not from another that shares its words', () => {
    const faq = knowledgeBase(
      JSON.stringify([
        {
          question: 'Wann bekomme ich mein Geld zurück?',
          answer:
            'Sobald deine Retoure bei uns eingegangen und geprüft ist, erstatten wir den Betrag innerhalb von 5 Werktagen – immer auf das Zahlungsmittel, mit dem du bezahlt hast. Bei PayPal ist die Gutschrift meist sofort sichtbar, bei Kreditkarten kann es je nach Bank weitere 3 bis 5 Tage dauern.',
        },
        {
          question: 'Wie reklamiere ich einen defekten Artikel?',
          answer:
            'Schreib uns eine E-Mail mit deiner Bestellnummer, einer kurzen Fehlerbeschreibung und Fotos des Mangels. Wir melden uns innerhalb von 2 Werktagen. Nach der Prüfung bekommst du je nach Fall eine Reparatur, einen Ersatzartikel oder dein Geld zurück.',
        },
        { question: 'Wie lange dauert die Lieferung?', answer: 'Die Zustellung durch DHL dauert innerhalb Deutschlands 1 bis 2 Werktage.' },
        { question: 'Welche Zahlungsarten bietet ihr an?', answer: 'Du kannst mit PayPal, Kreditkarte, Klarna und per Vorkasse bezahlen.' },
        { question: 'Wie löse ich einen Gutschein ein?', answer: 'Gib den Code im Warenkorb im Feld „Gutschein einlösen“ ein.' },
      ]),
      'json',
    );
    const a = faq.ask('Wann bekomme ich mein Geld zurück?');
    expect(faq.titleOf(a)).toEqual(['Wann bekomme ich mein Geld zurück?']);
    expect(a.answer).toContain('5 Werktagen');
  });

  it('does not answer a question about a place from a sentence that names it only as an exception ("Außer nach … in die Schweiz …")', () => {
    // The German shop's records (eval/sets/shop-faq-de), where "Außer nach Deutschland, Österreich und in die Schweiz …" competes.
    const faq = setKnowledgeBase('shop-faq-de/faq.json');
    const a = faq.ask('Was kostet der Versand in die Schweiz?');
    expect(faq.titleOf(a)).toEqual(['Liefert ihr in die Schweiz?']);
    expect(a.answer).toContain('19,90 €');
    expect(a.answer).not.toContain('14,90 €');
  });

  it('reads "Was kostet …?", "Wie teuer …?", "How expensive …?", "Quel est le prix …?" as asking for a price, and answers with it', () => {
    const german = garden.ask('Was kostet die Heckenschere?');
    expect(german.grounded).toBe(true);
    expect(german.answer).toContain('Akku-Heckenschere HS 18-50 (129,00 €)');
    expect(garden.ask('Wie teuer ist der Spindelmäher?').answer).toContain('Spindelmäher 33 (119,00 €)');
    const shop = knowledgeBase(
      JSON.stringify([
        { name: 'Lintel One Espresso Machine', price: '£649', category: 'Espresso machines', description: 'A single-boiler machine with PID temperature control and a commercial-size group.', specs: { Portafilter: '58 mm', 'Water tank': '2.5 litres' } },
        { name: 'Arden Tamper 58 mm', price: '£38', category: 'Tampers', description: 'A flat stainless tamper with a walnut handle, for every standard basket.', specs: { Fits: '58 mm baskets', Weight: '450 g' } },
        { name: 'Knock Box', price: '£29', category: 'Accessories', description: 'A sturdy box with a rubber-covered bar to knock the used pucks into.', specs: { Material: 'stainless steel, rubber bar' } },
      ]),
      'json',
    );
    expect(shop.ask('How expensive is the Lintel One?').answer).toContain('Lintel One Espresso Machine (£649)');
  });

  it('meets a compound with its words written apart ("Versandkosten" / "Der Versand … kostet")', () => {
    const faq = shippingFaq();
    const a = faq.ask('Wie hoch sind die Versandkosten nach Österreich?');
    expect(faq.titleOf(a)[0]).toBe('Liefert ihr auch nach Österreich?');
    expect(a.answer).toContain('9,90 €');
    const word = faq.index.expand('Versandkosten').words[0];
    expect(word?.matches.map((m) => m.term)).toEqual(expect.arrayContaining(['versand', 'kostet']));
    expect(word?.matches[0]).toEqual({ term: 'versandkost', credit: 1 });
  });

  it('meets a misspelt compound with its words written apart too ("versandkostn nach oesterreich")', () => {
    const faq = shippingFaq();
    const word = faq.index.expand('versandkostn').words[0];
    expect(word?.matches.map((m) => m.term)).toEqual(expect.arrayContaining(['versandkost', 'versand', 'kostet']));
    const a = faq.ask('versandkostn nach oesterreich??');
    expect(a.grounded).toBe(true);
    expect(faq.titleOf(a)[0]).toBe('Liefert ihr auch nach Österreich?');
    expect(a.answer).toContain('9,90 €');
  });

  it('meets a word with the compound a record ends with it, where the stemmer cuts the compound elsewhere ("Tiere" / "Haustiere", "Mäher" / "Rasenmäher")', () => {
    // Snowball stems "Tiere" to "tier" but "Haustiere" to "hausti", and "Mäher" to "mah".
    const pets = garden.index.expand('Tiere').words[0];
    expect(pets?.via).toBe('compound');
    expect(pets?.matches.map((m) => m.term)).toContain(garden.index.termOfSurface('haustiere'));
    const fertiliser = garden.ask('Wir haben einen Hund. Ist euer Rasendünger gefährlich für Tiere?');
    expect(garden.titleOf(fertiliser)).toEqual(['Bio-Rasendünger 5 kg']);
    expect(fertiliser.answer).toContain('Haustiere');
    // "Mäher" is part of both mowers' names, and names neither: the other mower is not quoted beside the one asked about.
    const mower = garden.ask('Wie lange kann ich mit dem Akku-Mäher am Stück mähen?');
    expect(garden.titleOf(mower)).toEqual(['Akku-Rasenmäher RM 36-37']);
    expect(mower.answer).toContain('40 Minuten');
  });

  it('meets a compound by its last word where the records use only that ("Verlängerungskabel" is a "Kabel"), and reads a German "n" as "ein"', () => {
    const shop = knowledgeBase(
      JSON.stringify([
        { name: 'Elektro-Vertikutierer VT 1500', price: '149,00 €', category: 'Vertikutierer', description: 'Entfernt Moos und Rasenfilz.', specs: { Leistung: '1500 W', Arbeitsbreite: '32 cm', Kabel: 'nicht im Lieferumfang' } },
        { name: 'Akku-Rasenmäher RM 36-37', price: '349,00 €', category: 'Rasenmäher', description: 'Für Rasenflächen bis 400 m².', specs: { Laufzeit: 'bis zu 40 Minuten', Gewicht: '15,8 kg' } },
        { name: 'Gartenschlauch 20 m', price: '29,90 €', category: 'Bewässerung', description: 'Knickfester Schlauch mit Gewebe.', specs: { Länge: '20 m' } },
      ]),
      'json',
    );
    const word = shop.index.expand('Verlängerungskabel').words[0];
    expect(word?.via).toBe('compound');
    expect(word?.matches).toEqual([{ term: shop.index.termOfSurface('kabel'), credit: 0.5 }]);
    const a = shop.ask('brauch ich fuer den vertikutierer n verlaengerungskabel oder is eins dabei');
    expect(a.grounded).toBe(true);
    expect(shop.titleOf(a)).toEqual(['Elektro-Vertikutierer VT 1500']);
    expect(a.answer).toContain('nicht im Lieferumfang');
    // "n" is "ein", a function word, not a name the records never mention.
    expect(shop.index.expand('n Verlängerungskabel').words.map((w) => w.surface)).toEqual(['verlaengerungskabel']);
  });

  it('answers "How long is/are …?" with the length a record names, not a warranty; refuses it for a product without one', () => {
    const shop = knowledgeBase(
      JSON.stringify([
        { name: 'Ridgeline Carbon Trekking Poles', price: '£99', category: 'Trekking Poles', description: 'Light, stiff carbon fibre poles sold as a pair.', specs: { Material: 'carbon fibre', Length: '105–135 cm', Weight: '460 g per pair', Warranty: '2 years' } },
        { name: 'Trailbase Foam Mat', price: '£16', category: 'Sleeping Mats', description: 'A simple closed-cell foam mat.', specs: { Thickness: '1.5 cm', Length: '180 cm', Weight: '290 g' } },
        { name: 'Fellside E48 Electric Grinder', price: '£289', category: 'Grinders', description: 'An electric grinder for every day.', specs: { Burrs: '48 mm flat, steel', Weight: '3.1 kg' } },
        { name: 'Lindner Gartenschlauch Flex 15 m', price: '27,90 €', category: 'Bewässerung', description: 'Leichter, knickfester Gartenschlauch.', specs: { Länge: '15 m', Durchmesser: '1/2 Zoll', Garantie: '5 Jahre' } },
      ]),
      'json',
    );
    const poles = shop.ask('How long are the carbon poles?');
    expect(shop.titleOf(poles)).toEqual(['Ridgeline Carbon Trekking Poles']);
    expect(poles.answer).toMatch(/^Ridgeline Carbon Trekking Poles \(£99\) — length: 105–135 cm/);
    const mat = shop.ask('how long is the foam mat');
    expect(mat.grounded).toBe(true);
    expect(mat.answer).toContain('length: 180 cm');
    // A span of time still answers "How long is the warranty …?" first.
    expect(shop.ask('How long is the warranty on the carbon poles?').answer).toMatch(/— warranty: 2 years/);
    // "48 mm" is no cable's length.
    expect(shop.ask('How long is the cable of the E48?').grounded).toBe(false);
    const hose = shop.ask('Wie lang ist der Gartenschlauch?');
    expect(hose.answer).toContain('15 m');
    expect(hose.answer).not.toContain('Garantie');
  });

  it('meets an English adjective with its superlative and back ("How warm is …?" / "Our warmest bag")', () => {
    const shop = knowledgeBase(
      JSON.stringify([
        { name: 'Hollin Winter Sleeping Bag', price: '£179', category: 'Sleeping Bags', description: 'Our warmest bag, filled with responsibly sourced duck down and with a draught collar around the neck.', specs: { 'Comfort rating': '-5 °C', Weight: '1.25 kg' } },
        { name: 'Fellrunner Summer Quilt', price: '£99', category: 'Sleeping Bags', description: 'A light quilt for warm summer nights, when a normal sleeping bag is far too hot for you.', specs: { 'Comfort rating': '8 °C', Weight: '540 g' } },
        { name: 'Lumen 350 Headtorch', price: '£39', category: 'Headtorches', description: 'Our brightest headtorch, with a red night mode and a lock so that it does not switch on in your bag.', specs: { 'Max brightness': '350 lumens' } },
        { name: 'Trailbase Foam Mat', price: '£16', category: 'Sleeping Mats', description: 'A simple closed-cell foam mat that can never puncture, for the first nights out with the family.', specs: { Length: '180 cm' } },
      ]),
      'json',
    );
    const warm = shop.ask('How warm is the Hollin sleeping bag?');
    expect(shop.titleOf(warm)).toEqual(['Hollin Winter Sleeping Bag']);
    expect(warm.answer).toContain('Our warmest bag');
    const word = shop.index.expand('warm').words[0];
    expect(word?.matches.map((m) => m.term)).toEqual([shop.index.termOfSurface('warm'), shop.index.termOfSurface('warmest')]);
    // And the other way: a question's "warmest" meets the records' "warm".
    expect(shop.index.expand('warmest').words[0]?.matches.map((m) => m.term)).toContain(shop.index.termOfSurface('warm'));
  });

  it('answers a question from the section whose heading asks it, not from a shorter one that repeats its words ("How do I end my ride?")', () => {
    // The bike-share help centre (eval/sets/help-questions-en): "If the battery runs out" ends with "End the ride in a parking zone as usual".
    const help = setKnowledgeBase('help-questions-en/help-centre.md');
    const a = help.ask('How do I end my ride?');
    expect(help.titleOf(a)[0]).toMatch(/How do I end my ride\?$/);
    expect(a.answer).toContain('grey parking zone');
  });

  it('reads a French "-ique" written the English way or as it sounds ("plastic", "plastik" for "plastique")', () => {
    // The tea shop's records (eval/sets/shop-faq-fr): "… nos envois sont sans plastique."
    const shop = setKnowledgeBase('shop-faq-fr/faq.md');
    for (const question of ['vos emballage c du plastic ou pas', 'il y a du plastik dans vos colis ?']) {
      const a = shop.ask(question);
      expect(a.grounded, question).toBe(true);
      expect(a.answer, question).toContain('sans plastique');
    }
    expect(shop.index.expand('plastic').words[0]).toMatchObject({ via: 'spelling', matches: [{ term: shop.index.termOfSurface('plastique') }] });
  });

  it('tells a phrasal verb by its particle: "sign up" is not "sign in", nor "sign out"', () => {
    // The shift-planning help centre (eval/sets/saas-help-en): "Sign up at shiftloom.app …" and "Sign in with Google".
    const help = setKnowledgeBase('saas-help-en/help-centre.md');
    const up = help.ask('How do I sign up?');
    expect(up.answer).toMatch(/^Sign up at shiftloom\.app/);
    expect(up.answer).not.toContain('Sign in with Google');
    // Nothing says how to sign out: not answered with how to sign in.
    expect(help.ask('How do I sign out?').grounded).toBe(false);
    expect(help.ask('How do I sign in with Google?').answer).toContain('Sign in with Google');
    // "up to" is no particle.
    expect(help.index.expand('Can employees sign up themselves?').words.map((w) => w.surface)).toContain('sign up');
    expect(help.index.expand('Can employees sign up to the app?').words.map((w) => w.surface)).not.toContain('sign up');
  });

  it('meets a phrasal verb where a record\'s question writes it ("runs out"), alone and as a follow-up', () => {
    const bikes = qaKnowledgeBase([
      ['How far can an e-bike go on one charge?', 'A fully charged e-bike battery lasts about 60 km. You never need to charge a bike yourself.'],
      ['What happens if the battery runs out during my ride?', 'The motor switches off, but you can keep pedalling like a normal bike.'],
      ['Can I ride at night?', 'Yes. Every bike has lights that switch on automatically.'],
      ['How much does a ride cost?', 'Unlocking a bike costs €1, then each minute costs €0.20.'],
    ]);
    const battery = 'What happens if the battery runs out during my ride?';
    // Its answer says "switches off", not "runs out": only the question writes it.
    expect(bikes.titleOf(bikes.ask("And what if it runs out while I'm riding?"))).toEqual([battery]);
    const conversation: Turn[] = [
      { role: 'user', content: 'How far does an e-bike go on one charge?' },
      { role: 'assistant', content: 'A fully charged e-bike battery lasts about 60 km. [1]' },
    ];
    // Searched with the range question, the range record comes first, which says nothing of running out;
    // asked alone, the follow-up's words are those of the battery record's question ("riding" / "ride").
    expect(bikes.titleOf(bikes.ask("And what if it runs out while I'm riding?", { conversation }))).toEqual([battery]);
  });

  it('answers what a thing costs with the share of a price it costs: "l’assurance annulation, elle coûte combien ?"', () => {
    // The insurance costs "3,5 % du montant du séjour"; the record on cancelling without it names no price.
    const camping = setKnowledgeBase('camping-fr/faq.md');
    for (const q of ["Et l'assurance en cas d'annulation, elle coûte combien ?", "Combien coûte l'assurance annulation ?"]) {
      const a = camping.ask(q);
      expect(camping.titleOf(a), q).toEqual(['Proposez-vous une assurance annulation ?']);
      expect(a.answer, q).toContain('3,5 %');
    }
  });

  it('tells a check-in from a check-out, in German too, where "in" is a stop word', () => {
    const flats = qaKnowledgeBase([
      ['Bis wann muss ich abreisen?', 'Bitte verlassen Sie die Wohnung bis 10 Uhr. Ein später Check-out bis 14 Uhr kostet 25 €.'],
      ['Gibt es Parkplätze?', 'Jede Wohnung hat einen eigenen Stellplatz am Haus.'],
      ['Darf ich meinen Hund mitbringen?', 'Hunde sind in zwei Wohnungen erlaubt, für 10 € pro Nacht.'],
    ]);
    // Nothing says when check-in is: refused, not answered with the check-out time.
    expect(flats.ask('Wann ist Check-in?').grounded).toBe(false);
    expect(flats.ask('Wann ist Check-out?').answer).toContain('14 Uhr');
    const hotel = qaKnowledgeBase([
      ['When is check-out?', 'Check-out is until 11 am; a late check-out until 2 pm costs $30.'],
      ['When can I check in?', 'Check-in starts at 3 pm. The key box code comes by text message.'],
      ['Is there parking?', 'Free parking is available behind the house.'],
    ]);
    expect(hotel.titleOf(hotel.ask('What time is check-in?'))).toEqual(['When can I check in?']);
    expect(hotel.titleOf(hotel.ask('What time is check-out?'))).toEqual(['When is check-out?']);
  });

  it('meets a word by its negation: a record that says "unpasteurised" answers "Is it pasteurised?"', () => {
    const cheese = qaKnowledgeBase([
      ['Tell me about the Brie de Meaux', 'Our Brie de Meaux is made from unpasteurised cow’s milk and ripened for 8 weeks.'],
      ['How is the cheese shipped?', 'In an insulated box with ice packs, by next-day courier.'],
      ['Can I freeze the cheese?', 'We do not recommend freezing: it spoils the texture.'],
    ]);
    const brie = cheese.ask('Is the Brie pasteurised?');
    expect(cheese.titleOf(brie)).toEqual(['Tell me about the Brie de Meaux']);
    expect(brie.answer).toContain('unpasteurised');
    const käse = qaKnowledgeBase([
      ['Welche Käse führt ihr?', 'Unser Bergkäse reift 12 Monate und ist aus unpasteurisierter Rohmilch.'],
      ['Wie wird der Käse verschickt?', 'In einer Isolierbox mit Kühlakkus, per Express.'],
      ['Kann man den Käse einfrieren?', 'Wir raten davon ab: die Textur leidet.'],
    ]);
    expect(käse.ask('Ist der Bergkäse pasteurisiert?').answer).toContain('unpasteurisierter');
  });

  it('does not answer for a country from a record about another one that says it is in the same union', () => {
    const shop = qaKnowledgeBase([
      ['Liefert ihr auch nach Österreich?', 'Ja. Der Versand nach Österreich kostet 9,90 €. Da Österreich zur EU gehört, fallen keine Zollgebühren an.'],
      ['In welche anderen Länder versendet ihr?', 'Wir versenden in alle EU-Länder sowie nach Norwegen. Der Versand dorthin kostet 14,90 €.'],
      ['Wie lange dauert die Lieferung?', 'Die Lieferung dauert 1 bis 3 Werktage.'],
      ['Kann ich auf Rechnung bestellen?', 'Ja, über Klarna.'],
    ]);
    // "Italien" meets "EU" in both records; the first is about Austria.
    const italy = shop.ask('Was kostet der Versand nach Italien?');
    expect(shop.titleOf(italy)).toEqual(['In welche anderen Länder versendet ihr?']);
    expect(italy.answer).toContain('14,90 €');
    // Where the title names the larger place itself, the record answers for the country in it.
    const uk = qaKnowledgeBase([
      ['Do you ship to Europe?', 'Yes, we ship to all EU countries for £9.95.'],
      ['Do you ship to Canada?', 'Yes, to Canada for £16.95; Canada is in North America, so allow 5–10 days.'],
      ['How do I track my order?', 'We email you a tracking link.'],
    ]);
    expect(uk.titleOf(uk.ask('Do you ship to Italy?'))).toEqual(['Do you ship to Europe?']);
    // A record that speaks of the union does not answer for a European country outside it by "European".
    const faq = setKnowledgeBase('shop-faq-en/faq.json');
    for (const country of ['Serbia', 'Russia']) expect(faq.titleOf(faq.ask(`Do you ship to ${country}?`)), country).not.toContain('Do you ship to Europe?');
    expect(faq.titleOf(faq.ask('Do you ship to Poland?'))).toEqual(['Do you ship to Europe?']);
  });

  it('does not answer for a place from a record that leaves out the country it is in', () => {
    const shop = qaKnowledgeBase([
      ['Which countries do you deliver to?', 'We deliver to all EU countries except Ireland and Malta, for £9.95 an order.'],
      ['How do I track my order?', 'We email you a tracking link when your parcel leaves us.'],
      ['Can I pay by invoice?', 'Yes, businesses can pay by invoice.'],
    ]);
    // "Dublin" meets "Ireland" and "EU"; the record leaves Ireland out. Was answered with it.
    expect(shop.ask('Do you deliver to Dublin?').grounded).toBe(false);
    expect(shop.ask('Do you deliver to Lyon?').answer).toContain('£9.95');
    // The shop FAQ in German: Berlin is in Germany, which "Außer nach Deutschland … in alle EU-Länder" leaves out.
    const de = setKnowledgeBase('shop-faq-de/faq.json');
    const plan = de.index.expand('Was kostet der Versand nach Berlin?');
    expect(plan.words.find((w) => w.surface === 'berlin')?.matches.map((m) => m.term)).toContain('eu');
    expect(de.ask('Was kostet der Versand nach Italien?').answer).toContain('14,90 €');
  });

  it('meets a number written as a word where the records also use the word: "a tent for two people" is the one that sleeps 2', () => {
    // The outdoor catalogue (eval/sets/outdoor-catalogue-en): the family tent "pitches … with two people" and sleeps 4.
    const outdoor = setKnowledgeBase('outdoor-catalogue-en/catalogue.json');
    const tent = outdoor.ask('Do you have a tent for two people?');
    expect(tent.answer).toMatch(/^Kestrel 2 Tent \(£249\)/);
    expect(tent.answer).toContain('sleeps: 2 people');
    expect(outdoor.index.expand('a tent for 2 people').words.find((w) => w.surface === '2')?.matches.map((m) => m.term)).toContain(outdoor.index.termOfSurface('two'));
  });

  it('answers "Wie groß ist …?" with the product\'s dimensions or what it holds', () => {
    // The garden catalogue (eval/sets/garden-catalogue-de): "Maße: 120 x 80 x 80 cm", "Fassungsvermögen: 100 l".
    const garden = setKnowledgeBase('garden-catalogue-de/catalogue.json');
    const bed = garden.ask('Wie groß ist das Hochbeet?');
    expect(bed.answer).toMatch(/^Lindner Hochbeet Lärche 120/);
    expect(bed.answer).toContain('120 x 80 x 80 cm');
    expect(garden.ask('Wie groß ist die Schubkarre?').answer).toContain('fassungsvermögen: 100 l');
    // "big" asks for the size and names no product: the small jug, not also the large one ("big" ~ "large").
    const catalogue = setKnowledgeBase('catalogue-en/catalogue.json');
    const small = catalogue.ask('How big is the small milk jug?');
    expect(catalogue.titleOf(small)).toEqual(['Milk Jug – Small']);
    expect(small.answer).toContain('capacity: 350 ml');
  });

  it('meets a German verb in its other forms, which the stemmer keeps apart ("kostet" / "kosten")', () => {
    const flats = qaKnowledgeBase([
      ['Wie hoch sind die Mietpreise?', 'Die 2-Zimmer-Wohnungen kosten ab 79 € pro Nacht, die 3-Zimmer-Wohnungen ab 99 €.'],
      ['Gibt es eine Waschmaschine?', 'Im Keller steht eine Waschmaschine. Ein Waschgang kostet 4 €.'],
      ['Sind Haustiere erlaubt?', 'Hunde sind in zwei Wohnungen erlaubt.'],
    ]);
    // Only the washing machine's record wrote "kostet": it was the answer.
    const night = flats.ask('Was kostet eine Nacht?');
    expect(flats.titleOf(night)).toEqual(['Wie hoch sind die Mietpreise?']);
    expect(night.answer).toContain('79 €');
  });

  it('answers "C\'est où l\'auto-école ?" with the address, not with a record that names the school', () => {
    // The driving school (eval/sets/driving-school-fr): "auto-école" is in many records.
    const school = setKnowledgeBase('driving-school-fr/faq.json');
    const where = school.ask("C'est où l'auto-école ?");
    expect(school.titleOf(where)).toEqual(["Où se trouve l'auto-école ?"]);
    expect(where.answer).toContain('27 rue des Tilleuls');
  });

  it('reads an acronym the records spell out as the words it stands for: "2FA" is "Two-factor authentication"', () => {
    const help = setKnowledgeBase('saas-help-en/help-centre.md');
    for (const question of ['How do I turn on 2FA?', 'how do i turn on 2fa']) {
      const answer = help.ask(question);
      expect(answer.grounded, question).toBe(true);
      expect(help.titleOf(answer)[0], question).toMatch(/Two-factor authentication$/);
    }
    // An acronym no record spells out still names something they never mention.
    expect(help.ask('Do you support MFA?').grounded).toBe(false);
  });

  it('answers "the biggest" or "the smallest" of a kind with the one that holds the most or the least', () => {
    const coffee = setKnowledgeBase('catalogue-en/catalogue.json');
    expect(coffee.ask("What's the biggest milk jug?").answer).toMatch(/^Milk Jug – Large \(£28\) — capacity: 950 ml/);
    expect(coffee.ask('Which is the smallest milk jug?').answer).toMatch(/^Milk Jug – Small/);
    const garden = setKnowledgeBase('garden-catalogue-de/catalogue.json');
    expect(garden.ask('Was ist die größte Gießkanne?').answer).toMatch(/^Lindner Zink-Gießkanne 10 l/);
  });

  it('meets a country by its other names where the records use more than one ("USA", "US", "United States")', () => {
    // The shop FAQ (eval/sets/shop-faq-en): the customs record says "the US", the delivery record "the United States".
    const shop = setKnowledgeBase('shop-faq-en/faq.json');
    const usa = shop.ask('how much is delivery to the usa');
    expect(shop.titleOf(usa)).toEqual(['Do you deliver to the United States and Canada?']);
    expect(usa.answer).toContain('£14.95');
    // Chat "2" for "to": not "2–4 working days" of UK delivery.
    expect(shop.titleOf(shop.ask('do u ship 2 ireland'))).toEqual(['Do you ship to Europe?']);
    // A country in lower case weighs as the name it is: not outweighed by "deliver" in another record's question.
    expect(shop.titleOf(shop.ask('do u deliver to france'))).toEqual(['Do you ship to Europe?']);
  });

  it('meets a German compound the visitor writes apart: "bar zahlen" is the "Barzahlung" of the payment record', () => {
    const shop = setKnowledgeBase('shop-faq-de/faq.json');
    const cash = shop.ask('kann ich bar zahlen');
    expect(shop.titleOf(cash)).toEqual(['Welche Zahlungsarten bietet ihr an?']);
    expect(cash.answer).toContain('Barzahlung');
  });

  it('meets a German compound the visitor writes apart in the other order, a verb\'s ending left off: "Was kostet der Versand?" is the "Versandkosten" of the domestic record, not Austria\'s "Versand … kostet"', () => {
    const shop = setKnowledgeBase('shop-faq-de/faq.json');
    for (const question of ['Was kostet der Versand?', 'Wie viel kostet der Versand?']) {
      const shipping = shop.ask(question);
      expect(shop.titleOf(shipping), question).toEqual(['Wie hoch sind die Versandkosten innerhalb Deutschlands?']);
      expect(shipping.answer, question).toContain('4,95 €');
    }
    const costs = shop.index.termOfSurface('versandkosten');
    for (const word of shop.index.expand('Was kostet der Versand?').words.filter((w) => w.surface === 'kostet' || w.surface === 'versand')) {
      expect(word.matches.map((m) => m.term), word.surface).toContain(costs);
    }
    // A place named still decides.
    expect(shop.titleOf(shop.ask('Was kostet der Versand nach Österreich?'))).toEqual(['Liefert ihr auch nach Österreich?']);
  });

  it('opens with the record whose own question asks what the visitor does: "How much is delivery?" is "How much is UK delivery …?", not the shorter price of delivery to the United States', () => {
    const shop = setKnowledgeBase('shop-faq-en/faq.json');
    const delivery = shop.ask('How much is delivery?');
    expect(shop.titleOf(delivery)[0]).toBe('How much is UK delivery and how long does it take?');
    expect(delivery.answer).toContain('£3.95');
    // A place named still decides.
    expect(shop.titleOf(shop.ask('how much is delivery to the usa'))).toEqual(['Do you deliver to the United States and Canada?']);
  });

  it('weighs the words that place the visitor in time as ordinary words: "I can\'t make it tomorrow, …"', () => {
    const clinic = setKnowledgeBase('clinic-faq-en/faq.json');
    expect(clinic.titleOf(clinic.ask("I can't make it tomorrow, will I still have to pay if I cancel now?"))).toEqual(['What is your cancellation policy?']);
    // A part of the day may be the topic ("evening classes", "jeden Vormittag"): it keeps its weight.
    const words = clinic.index.expand('Do you have evening appointments tomorrow?').words;
    expect(words.find((w) => w.surface === 'tomorrow')?.general).toBe(0);
    expect(words.find((w) => w.surface === 'evening')?.general).toBeGreaterThan(0);
  });

  it('answers a follow-up that switches products with what was asked of the one before: "und bei den dünnen Nitril-Handschuhen?"', () => {
    const garden = setKnowledgeBase('garden-catalogue-de/catalogue.json');
    const conversation: Turn[] = [
      { role: 'user', content: "Welche Größen gibt's bei den Rosenhandschuhen aus Leder?" },
      { role: 'assistant', content: 'Lindner Rosenhandschuhe Leder (19,90 €) — größen: 8 (M) bis 10 (XL) [1]' },
    ];
    const thin = garden.ask('und bei den dünnen Nitril-Handschuhen?', { conversation });
    expect(garden.titleOf(thin)).toEqual(['Lindner Gartenhandschuhe Nitril']);
    expect(thin.answer).toContain('größen: 7 (S) bis 10 (XL)');
    // What it asks of the other that its record does not say is still refused.
    expect(garden.ask('und sind die Nitril-Handschuhe wasserdicht?', { conversation }).grounded).toBe(false);
  });

  it('answers a part that asks where the business is on its own: "Where are you and is there parking?"', () => {
    const clinic = setKnowledgeBase('clinic-faq-en/faq.json');
    const both = clinic.ask('Where are you and is there parking?');
    expect(clinic.titleOf(both)).toEqual(['Where are you located?', 'Is there parking?']);
    expect(both.answer).toContain('14 Hilton Street');
    // A word that names no topic ("exactly", "exactement") leaves it a question about the business,
    // answered though the other part is not.
    expect(clinic.titleOf(clinic.ask('Where exactly are you? And do you sell gift vouchers?'))).toEqual(['Where are you located?']);
    const camping = setKnowledgeBase('camping-fr/faq.md');
    expect(camping.titleOf(camping.ask('Vous êtes où exactement ? Et vous louez des trottinettes ?'))).toEqual(['Comment venir au camping ?']);
    // A part that points back is read with the rest: the pick-up warehouse's hours, not customer service's.
    const shop = setKnowledgeBase('shop-faq-de/faq.json');
    expect(shop.titleOf(shop.ask('Kann ich in Leipzig abholen? Wann habt ihr dort geöffnet?'))).toEqual(['Kann ich meine Bestellung selbst abholen?']);
  });

  it('does not meet "sich" in "sicher": a question about safe data is not one about registering', () => {
    const faq = qaKnowledgeBase([
      ['Wie registriere ich mich?', 'Registrieren Sie sich mit Ihrer E-Mail-Adresse und einem Passwort.'],
      ['Welche Zahlungsarten gibt es?', 'Sie zahlen mit PayPal, Kreditkarte oder auf Rechnung.'],
      ['Wann ist der Laden geöffnet?', 'Montag bis Freitag von 9 bis 18 Uhr.'],
    ]);
    // Snowball stems "sicher" and "Sicherheit" to "sich", a function word every record may use.
    expect(faq.ask('Wie sicher sind meine Daten bei euch?').grounded).toBe(false);
    expect(faq.titleOf(faq.ask('Kann ich mit Kreditkarte zahlen?'))).toEqual(['Welche Zahlungsarten gibt es?']);
  });

  it('reads a currency’s name as the amount the records write with its symbol ("200 Euro" / "200 €")', () => {
    const flats = qaKnowledgeBase([
      ['Muss ich eine Kaution hinterlegen?', 'Ja, wir erheben eine Kaution von 200 € pro Aufenthalt. Sie bekommen sie innerhalb von 14 Tagen nach Abreise zurück.'],
      ['Wann ist die Anreise?', 'Die Wohnung ist ab 16 Uhr bezugsfertig.'],
      ['Gibt es Parkplätze?', 'Jede Wohnung hat einen eigenen Stellplatz am Haus.'],
    ]);
    // "Euro" was a rare word no record uses, and weighed as much as the rest of the question.
    const deposit = flats.ask('Wann bekomme ich die 200 Euro wieder?');
    expect(flats.titleOf(deposit)).toEqual(['Muss ich eine Kaution hinterlegen?']);
    expect(deposit.answer).toContain('14 Tagen');
    const shop = qaKnowledgeBase([
      ['Is delivery free?', 'Delivery is free on orders over $50; below that it costs $4.95.'],
      ['Can I exchange an item?', 'Yes, exchanges are free within 30 days of delivery.'],
    ]);
    expect(shop.titleOf(shop.ask('do i pay for delivery under 50 dollars'))).toEqual(['Is delivery free?']);
    // Not on its own: the currency itself is something the records never mention.
    expect(shop.ask('What is the exchange rate between the euro and the dollar?').grounded).toBe(false);
  });

  it('refuses in German, or with the owner’s message', () => {
    const a = german.ask('Habt ihr eine Filiale in München?');
    expect(a.grounded).toBe(false);
    expect(a.answer).toBe('Dazu habe ich in der Wissensdatenbank nichts gefunden.');
    expect(german.ask('Habt ihr eine Filiale in München?', { fallbackMessage: 'Schreib uns an hilfe@laden.example' }).answer).toBe('Schreib uns an hilfe@laden.example');
  });
});

const catalogue = knowledgeBase(
  JSON.stringify([
    { name: 'Arden Tamper 58 mm', price: '£38', sku: 'TAM-58', category: 'Tampers', description: 'A flat stainless tamper.', specs: { Fits: '58 mm baskets', Weight: '450 g' } },
    { name: 'Arden Tamper 51 mm', price: '£32', sku: 'TAM-51', category: 'Tampers', description: 'A smaller flat tamper.', specs: { Fits: '51 mm baskets', Weight: '380 g' } },
    { name: 'Copper Kettle', price: '£74', sku: 'KET-01', category: 'Kettles', description: 'A gooseneck kettle for pour-over.', specs: { Capacity: '0.6 L' } },
  ]),
  'json',
);

describe('product answers', () => {
  it('name first, then the price and the asked-for field, without SKU or category lines', () => {
    const a = catalogue.ask('How heavy is the Arden Tamper 58 mm? What is its weight?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toMatch(/^Arden Tamper 58 mm \(£38\) — .*weight: 450 g/);
    expect(a.answer).not.toMatch(/TAM-58|Tampers/);
  });

  it('meets an adjective with the quantity it measures, though another record uses the adjective ("heavy" → "Weight")', () => {
    const kit = knowledgeBase(
      JSON.stringify([
        { name: 'Fellside Hand Grinder', price: '£129', category: 'Grinders', description: 'A manual grinder for travel.', specs: { Burrs: '38 mm conical', Weight: '620 g' } },
        { name: 'Knock Box', price: '£29', category: 'Accessories', description: 'A heavy rubber bar takes the knocks.', specs: { Diameter: '110 mm' } },
      ]),
      'json',
    );
    const a = kit.ask('How heavy is the Fellside hand grinder?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toMatch(/^Fellside Hand Grinder \(£129\) — .*weight: 620 g/);
  });

  it('meets "waterproof" (typed right or not) with the field "Water resistance", and "how long do … go up to" with the length', () => {
    const kit = knowledgeBase(
      JSON.stringify([
        { name: 'Lumen 350 Headtorch', price: '£39', category: 'Headtorches', description: 'Our brightest headtorch. Charges from any USB-C cable.', specs: { 'Max brightness': '350 lumens', 'Water resistance': 'IPX7', Weight: '78 g' } },
        { name: 'Tarn Jacket', price: '£149', category: 'Jackets', description: 'A fully waterproof, breathable shell for wet days.', specs: { Weight: '390 g' } },
        { name: 'Ridgeline Carbon Trekking Poles', price: '£99', category: 'Trekking Poles', description: 'Light, stiff carbon fibre poles sold as a pair.', specs: { Length: '105–135 cm', Weight: '460 g per pair', Warranty: '2 years' } },
      ]),
      'json',
    );
    expect(kit.ask('Is the Lumen 350 headtorch waterproof?').answer).toMatch(/^Lumen 350 Headtorch \(£39\) — water resistance: IPX7/);
    expect(kit.ask('is the lumen 350 head torch waterprof?? gona be out in heavy rain').answer).toMatch(/^Lumen 350 Headtorch \(£39\) — water resistance: IPX7/);
    expect(kit.ask('How long do the carbon poles go up to? I am 6ft4').answer).toMatch(/^Ridgeline Carbon Trekking Poles \(£99\) — length: 105–135 cm/);
  });

  it('answers "how heavy" with the weight, though every product has one and other words meet other fields', () => {
    // Every record has a Weight line, so the word weighs nothing across the catalogue; "pack"
    // meets "Packed size" and "2" meets "Porches: 2". Asking for a weight is asking for "1.9 kg".
    const tents = knowledgeBase(
      JSON.stringify([
        { name: 'Kestrel 1 Tent', price: '£185', category: 'Tents', description: 'A light solo tent. One door, one porch big enough for boots.', specs: { Sleeps: '1 person', Weight: '1.35 kg', 'Packed size': '42 x 14 cm' } },
        { name: 'Kestrel 2 Tent', price: '£249', category: 'Tents', description: 'The two-person version, with a porch on each side.', specs: { Sleeps: '2 people', Weight: '1.9 kg', Porches: '2' } },
        { name: 'Scarth 28 Daypack', price: '£69', category: 'Rucksacks', description: 'A day rucksack with a rain cover.', specs: { Capacity: '28 litres', Weight: '950 g' } },
        { name: 'Trailbase Foam Mat', price: '£16', category: 'Mats', description: 'A closed-cell foam mat.', specs: { 'R-value': '2.0', Weight: '280 g' } },
      ]),
      'json',
    );
    // The asked-for field first, right after the name and price, before any description.
    expect(tents.ask("How heavy is your one-man tent? I'm trying to keep my pack as light as I can.").answer).toMatch(/^Kestrel 1 Tent \(£185\) — weight: 1\.35 kg/);
    expect(tents.ask('hw heavy is the 2 man tent').answer).toMatch(/^Kestrel 2 Tent \(£249\) — weight: 1\.9 kg/);
    expect(tents.ask('How much does the Kestrel 2 weigh?').answer).toMatch(/weight: 1\.9 kg/);
    // "the lightest" and "the heaviest" order the products the question names by their weight.
    expect(tents.ask("What's your lightest tent?").answer).toMatch(/^Kestrel 1 Tent \(£185\) — .*weight: 1\.35 kg/);
    expect(tents.ask('Which tent is the heaviest?').answer).toMatch(/^Kestrel 2 Tent \(£249\) — .*weight: 1\.9 kg/);
  });

  it('answers "weigh", "wiegt", "pèse" with the weight field before another that holds grams ("Hopper capacity: 250 g")', () => {
    const grinders = knowledgeBase(
      JSON.stringify([
        { name: 'Fellside E48 Electric Grinder', price: '£289', category: 'Grinders', description: 'An everyday electric grinder with a hopper.', specs: { 'Hopper capacity': '250 g', Motor: '150 W', Weight: '3.1 kg' } },
        { name: 'Fellside E64 Single-Dose Grinder', price: '£549', category: 'Grinders', description: 'Weigh each dose and pour it in.', specs: { Retention: 'under 0.1 g', Weight: '5.4 kg' } },
        { name: 'Knock Box', price: '£29', category: 'Accessories', description: 'Somewhere to knock out the used coffee.', specs: { Material: 'stainless steel' } },
      ]),
      'json',
    );
    expect(grinders.ask('How much does the E48 weigh?').answer).toMatch(/^Fellside E48 Electric Grinder \(£289\) — weight: 3\.1 kg/);
    expect(garden.ask('Wie viel wiegt der Spindelmäher?').answer).toMatch(/^Spindelmäher 33 \(119,00 €\) — gewicht: 8,2 kg/);
    const furniture = knowledgeBase(
      JSON.stringify([
        { name: 'Chaise longue Bélair', price: '129 €', category: 'Chaises', description: 'Une chaise longue réglable.', specs: { 'Charge maximale': '120 kg', Poids: '9 kg' } },
        { name: 'Parasol Mistral', price: '59 €', category: 'Parasols', description: 'Un parasol inclinable.', specs: { Diamètre: '250 cm', Poids: '6 kg' } },
      ]),
      'json',
    );
    expect(furniture.ask('Combien pèse la chaise longue ?').answer).toMatch(/^Chaise longue Bélair \(129 €\) — poids : 9 kg|^Chaise longue Bélair \(129 €\) — poids: 9 kg/);
  });

  it('quotes a product’s fields and sentences in the places its name, SKU and category lines would take', () => {
    // Those lines are never quoted, yet as chosen units they used up the reply's three places, and
    // the sentence that answers ("Removes 99.9999% of bacteria") was left out.
    const water = knowledgeBase(
      JSON.stringify([
        {
          name: 'Clearbrook Squeeze Filter',
          category: 'Water Treatment',
          sku: 'WAT-CLB-SQZ',
          price: '£32',
          description: 'Fill the soft pouch from a stream, screw on the filter and drink through it or squeeze into a bottle. Removes 99.9999% of bacteria and 99.9% of protozoa.',
          specs: { 'Pore size': '0.1 micron', 'Filter life': 'up to 1,000 litres', Viruses: 'not removed', Weight: '85 g' },
        },
        { name: 'Clearbrook Purification Tablets (50)', category: 'Water Treatment', sku: 'WAT-CLB-TAB50', price: '£7.50', description: 'Chlorine dioxide tablets that kill bacteria, viruses and protozoa.', specs: { 'Wait time': '30 minutes' } },
        { name: 'Loft Insulated Jacket', category: 'Jackets', sku: 'JKT-LFT', price: '£139', description: 'A warm puffy jacket for cold belay stops.', specs: { Weight: '480 g' } },
        { name: 'Kestrel 1 Tent', category: 'Tents', sku: 'TNT-KES-1', price: '£185', description: 'A light solo tent.', specs: { Weight: '1.35 kg' } },
      ]),
      'json',
    );
    const a = water.ask('Can I drink straight from a stream with the squeeze filter? Does it get rid of bugs?');
    expect(water.titleOf(a)[0]).toBe('Clearbrook Squeeze Filter');
    expect(a.answer).toContain('99.9999% of bacteria');
    expect(a.answer).not.toMatch(/WAT-CLB|Water Treatment/);
  });

  it('answers "the cheapest" and "the most expensive" with the product of that price among those the question names', () => {
    const cheapest = catalogue.ask('Which of your tampers is the cheapest?');
    expect(cheapest.grounded).toBe(true);
    expect(cheapest.answer).toMatch(/^Arden Tamper 51 mm \(£32\)/);
    expect(cheapest.sources).toHaveLength(1);
    const dearest = catalogue.ask("What's your most expensive tamper?");
    expect(dearest.answer).toMatch(/^Arden Tamper 58 mm \(£38\)/);
    // The only kettle, although both tampers cost less: they are not kettles.
    expect(catalogue.ask('What is the cheapest kettle?').answer).toMatch(/^Copper Kettle \(£74\)/);
  });
});

const trial = knowledgeBase(`# Help

## Free trial
Every workspace starts with a 14-day free trial of the Business plan. When the trial ends, the workspace becomes read-only until you choose a plan; nothing is deleted.

## Warranty
Cast-iron pans are guaranteed for 10 years. Electric kettles come with a two-year warranty.
`);

describe('meaning beyond the records’ words', () => {
  it('matches a place to the country the records name, and a word to its synonym', () => {
    const a = shop.ask('Can you send my order to Toronto?');
    expect(a.grounded).toBe(true);
    expect(shop.titleOf(a)[0]).toBe('Shop FAQ › Shipping');
    expect(a.answer).toContain('Canada and Mexico');
  });

  it('treats a misspelt ordinary word as the word meant, not as an unknown name', () => {
    const a = shop.ask('how long do i have to retrun somthing');
    expect(a.grounded).toBe(true);
    expect(shop.titleOf(a)[0]).toBe('Shop FAQ › Returns');
  });

  it('reads casual spelling: slips on function words, short misspellings and real-word slips', () => {
    // "wat"/"wen" are filler, "iorn" is "iron", and "trail" is a slip for "trial".
    const a = trial.ask('wat happens wen my free trail ends');
    expect(a.grounded).toBe(true);
    expect(a.answer).toContain('read-only');
    const b = shop.ask('wats the warrenty on a ketle');
    expect(b.grounded).toBe(true);
    expect(shop.titleOf(b)[0]).toBe('Shop FAQ › Warranty');
    expect(trial.ask('wat is the warranty on iorn pans').answer).toContain('Cast-iron');
  });

  it('weighs a slip for a word the records use as that word ("meny" is "many", "retrun" is "return")', () => {
    const plans = knowledgeBase('# Plans\n\nHow many users can join? Many can: the Starter plan allows up to 15 users. Returns are free.\n');
    const words = (q: string) => plans.index.expand(q).words.map((w) => ({ surface: w.surface, general: w.general }));
    // A function word: filler, as the word meant is.
    expect(words('which users can meny join').map((w) => w.surface)).toEqual(words('which users can many join').map((w) => w.surface));
    expect(words('meny').map((w) => w.surface)).toEqual([]);
    // An ordinary word weighs as the word meant, not as an unknown name.
    const [slip] = words('retrun');
    expect(slip?.general).toBe(words('return')[0]?.general);
    expect(slip?.general).toBeLessThan(0.5);
    expect(plans.index.expand('retrun').words[0]?.via).toBe('spelling');
  });

  it('does not take a rarer real word for a misspelling of another ("bake" is not "bike")', () => {
    const bikes = knowledgeBase('# Returns\n\nYou can return any bike within 30 days of delivery for a full refund.\n');
    expect(bikes.ask('How do I bake sourdough bread?').grounded).toBe(false);
    expect(bikes.ask('can i return a bkie').grounded).toBe(true);
  });

  it('lists a product’s fields when the asked-for one goes by another word', () => {
    const a = catalogue.ask('How heavy is the Arden Tamper 51 mm?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toMatch(/^Arden Tamper 51 mm \(£32\) — .*weight: 380 g/);
    expect(a.answer).not.toMatch(/TAM-51|Tampers/);
  });

  it('reads "What happens if …?" as asking what follows, not as a word the records must hold', () => {
    const help = setKnowledgeBase('saas-help-en/help-centre.md');
    // Was refused: "happens", which no record writes, weighed most of the question.
    const deleted = help.ask('What happens if I delete an employee?');
    expect(help.titleOf(deleted)).toEqual(['Shiftloom Help Centre › Data & privacy › Data retention']);
    expect(deleted.answer).toContain('when you delete an employee, their personal details are anonymised after 30 days');
    expect(help.index.expand('What happens if I delete an employee?').words.map((w) => w.surface)).not.toContain('happens');
    // Elsewhere the verb is a word like any other.
    expect(help.index.expand('It happens every week').words.map((w) => w.surface)).toContain('happens');
    const fr = KnowledgeIndex.build([{ recordId: 'r1', title: 'Annulation', text: 'Vous pouvez annuler votre commande dans les 2 heures.', sourceName: 'faq.md' }], { language: 'fr' });
    expect(fr.expand("Que se passe-t-il si j'annule ma commande ?").words.map((w) => w.surface)).not.toContain('passe');
    expect(fr.expand('Il se passe quoi ?').words.map((w) => w.surface)).toContain('passe');
  });

  it('meets a word by its derivation: "try" is "trial"', () => {
    const help = setKnowledgeBase('saas-help-en/help-centre.md');
    // Was answered with the plans' prices ("free" alone met them).
    const trial = help.ask('Can I try it for free?');
    expect(help.titleOf(trial)).toEqual(['Shiftloom Help Centre › Billing & plans › Free trial']);
    expect(trial.answer).toContain('14-day free trial');
  });

  it('reads a phrasal verb whose object stands between the verb and its particle ("sign them up", "sign my company up")', () => {
    const help = setKnowledgeBase('saas-help-en/help-centre.md');
    // Was "Sign in with Google …" and a refusal: the particle went to "them" (a stop word: none) or to "company".
    for (const question of ['How do I sign them up?', 'How do I sign my company up?']) expect(help.ask(question).answer, question).toMatch(/^Sign up at shiftloom\.app/);
    const words = help.index.expand('Can I pick my region up later?').words.map((w) => w.surface);
    expect(words).toContain('pick up');
    expect(words).not.toContain('region up');
    // "Turn it on under My profile › Security" does not say how to turn it off.
    expect(help.ask('How do I turn it off?').grounded).toBe(false);
  });

  it('does not answer a question about the visitor\'s own phone number with the business\'s', () => {
    const shopFaq = setKnowledgeBase('shop-faq-en/faq.json');
    // Was answered with "You can also call us on 0114 496 0321 …".
    // The contact record is not the answer (since session 55's refit, the order-change record is,
    // at a confidence a hair over the threshold: docs/quality.md lists it among the failures).
    const own = shopFaq.ask('My phone number has changed, how do I update it?');
    expect(own.answer).not.toContain('0114 496 0321');
    expect(shopFaq.titleOf(own)).not.toContain('How can I contact you?');
    expect(shopFaq.ask("What's your phone number?").answer).toContain('0114 496 0321');
  });

  it('answers a question that asks for a temperature with the line that gives one', () => {
    // The French tea shop (eval/sets/shop-faq-fr): "température" is in the storage record ("à température ambiante") too.
    const tea = setKnowledgeBase('shop-faq-fr/faq.md');
    const green = tea.ask('Quelle température pour le thé vert ?');
    expect(tea.titleOf(green).at(0)).toMatch(/Comment préparer mon thé \?/);
    expect(green.answer).toContain('70-80 °C');
  });

  it('answers a question that asks for a speed only with a line that gives one', () => {
    // The bike hire's help questions (eval/sets/help-questions-en) give a range in km, no speed:
    // "top speed" was met by the battery record's "60 km" ("speed" ~ "go").
    const bikes = setKnowledgeBase('help-questions-en/help-centre.md');
    expect(bikes.ask("what's the top speed of the e-bikes").grounded).toBe(false);
    const hire = qaKnowledgeBase([
      ['How far does an e-bike go on one charge?', 'A fully charged battery lasts about 60 km.'],
      ['How fast are the e-bikes?', 'The motor assists you up to 25 km/h, the legal limit for e-bikes.'],
      ['Do I need a helmet?', 'Helmets are not required, but we recommend one.'],
    ]);
    const top = hire.ask("What's the top speed of the e-bikes?");
    expect(top.answer).toContain('25 km/h');
    expect(hire.titleOf(top)).toEqual(['How fast are the e-bikes?']);
  });

  it('does not meet a verb of several words by its words apart ("turn" is "change state", not "the United States")', () => {
    const shopFaq = setKnowledgeBase('shop-faq-en/faq.json');
    // Was answered with the price of delivery to the United States.
    expect(shopFaq.ask('How do I turn it off?').grounded).toBe(false);
    expect(shopFaq.index.expand('How do I turn it off?').words.flatMap((w) => w.matches.map((m) => m.term))).not.toContain('state');
  });
});

const help = knowledgeBase(`# Help

## Can't clock in
If the Clock in button is greyed out, check that:

- your shift starts in 15 minutes or less;
- you are inside the geofence of your location;
- your app is up to date.

If you still can't clock in, ask your Manager to add the time manually.

## Exports
Reports can be downloaded as CSV or PDF from the Reports page.
`);

describe('passages', () => {
  it('quote a sentence that introduces a list together with its items', () => {
    const a = help.ask('the clock in button is greyed out, what do I check?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toContain('check that: - your shift starts in 15 minutes or less; - you are inside the geofence');
  });
});

const french = knowledgeBase(`# Questions fréquentes

## Livraison
Nous livrons en France métropolitaine en 3 à 5 jours ouvrés. La livraison en Suisse coûte 14,90 €.

## Paiement
Nous acceptons la carte bancaire et PayPal. Les chèques ne sont pas acceptés.
`);

describe('polite verb forms in German and French', () => {
  const shop = qaKnowledgeBase([
    ['Puis-je obtenir une facture ?', 'Oui, votre facture au format PDF est disponible dans votre espace client dès l’expédition de la commande.'],
    ['Puis-je retourner un article ?', 'Oui, vous disposez de 14 jours à compter de la réception pour nous retourner un article non ouvert.'],
    ['Comment suivre ma commande ?', 'Le numéro de suivi vous est envoyé par e-mail dès l’expédition.'],
  ]);

  it('reads "je voudrais", "comment je fais pour", "pourriez-vous" as the asking, not as a topic no record has', () => {
    const invoice = shop.ask('Je voudrais une facture pour ma commande');
    expect(invoice.grounded).toBe(true);
    expect(shop.titleOf(invoice)[0]).toBe('Puis-je obtenir une facture ?');
    const returns = shop.ask('Comment je fais pour retourner un article ?');
    expect(returns.grounded).toBe(true);
    expect(shop.titleOf(returns)[0]).toBe('Puis-je retourner un article ?');
    expect(shop.index.expand('Pourriez-vous m’envoyer une facture ?').words.map((w) => w.surface)).not.toContain('pourriez');
  });

  it('reads "könnten Sie", "hätten Sie" the same way in German', () => {
    const words = german.index.expand('Könnten Sie mir sagen, ob ich mit PayPal zahlen darf?').words.map((w) => w.surface);
    expect(words).not.toContain('koennten');
    expect(words).not.toContain('darf');
    expect(words).toContain('paypal');
  });
});

describe('German verb endings', () => {
  it('meets a verb in "-t" with its other forms ("Montiert ihr auch Teile?" / "montieren wir … Teile"), in German only', () => {
    const shop = knowledgeBase(
      JSON.stringify([
        { question: 'Bietet ihr einen Montageservice an?', answer: 'Ja. In unserer Werkstatt in Leipzig montieren wir bei uns gekaufte Teile wie Schutzbleche oder Gepäckträger.' },
        { question: 'Wie lange dauert die Lieferung?', answer: 'Die Zustellung dauert 1 bis 2 Werktage.' },
        { question: 'Welche Zahlungsarten bietet ihr an?', answer: 'Du kannst mit PayPal, Kreditkarte oder auf Rechnung bezahlen.' },
      ]),
      'json',
    );
    const a = shop.ask('Montiert ihr auch Teile?');
    expect(a.grounded).toBe(true);
    expect(shop.titleOf(a)[0]).toBe('Bietet ihr einen Montageservice an?');
    const english = knowledgeBase(`# Help\n\n## Accessibility\nOur videos have captions for customers with hearing loss.\n`);
    expect(english.index.expand('heart').words[0]?.matches ?? []).toEqual([]);
  });
});

describe('a German compound the records write as its parts', () => {
  const shop = knowledgeBase(
    JSON.stringify([
      { question: 'Wie löse ich einen Gutschein ein?', answer: 'Gib den Code im Warenkorb im Feld „Gutschein einlösen“ ein. Pro Bestellung kann nur ein Rabattcode verwendet werden.' },
      { question: 'Welche Garantie gilt für eure Produkte?', answer: 'Für alle Artikel gilt die gesetzliche Gewährleistung von 2 Jahren ab Lieferung.' },
      { question: 'Wie lange dauert die Lieferung?', answer: 'Die Zustellung dauert 1 bis 2 Werktage.' },
    ]),
    'json',
  );

  it('meets "Gutscheincode" with "Gutschein" and "Code", a three-letter stem, and counts it met where the answer writes both', () => {
    const words = shop.index.expand('Wo gebe ich meinen Gutscheincode ein?').words;
    const code = words.find((w) => w.surface === 'gutscheincode');
    expect(code?.matches.map((m) => m.term).sort()).toEqual(['cod', 'gutschein']);
    expect(code?.parts).toBe(true);
    const a = shop.ask('Wo gebe ich meinen Gutscheincode ein?');
    expect(a.grounded).toBe(true);
    expect(shop.titleOf(a)).toEqual(['Wie löse ich einen Gutschein ein?']);
  });

  it('does not split an English word into short words ("without" is not "with" + "out")', () => {
    const english = knowledgeBase(`# Help\n\n## Offline\nThe app works with no signal and syncs your hours when you are back online. Log out to switch users.\n`);
    expect(english.index.expand('does it work without wifi').words.find((w) => w.surface === 'without')?.matches ?? []).toEqual([]);
  });
});

describe('German words that no ending links', () => {
  const shop = knowledgeBase(
    JSON.stringify([
      { question: 'Kann ich Artikel nach Ablauf der Widerrufsfrist zurückgeben?', answer: 'Ja. Unbenutzte Artikel kannst du innerhalb von 60 Tagen nach Erhalt zurückgeben.' },
      { question: 'Wie lange dauert die Lieferung?', answer: 'Die Zustellung dauert 1 bis 2 Werktage.' },
      { question: 'Welche Zahlungsarten bietet ihr an?', answer: 'Du kannst mit PayPal, Kreditkarte oder auf Rechnung bezahlen.' },
    ]),
    'json',
  );

  it('meets a noun made from a verb ("Rückgabe" / "zurückgeben") and the "zu" inside an infinitive ("zurückzugeben")', () => {
    for (const question of ['Ist eine Rückgabe nach drei Wochen noch möglich?', 'rueckgabe nach 3 wochen noch moeglich wenn unbenutzt', 'Bis wann kann ich einen Artikel zurückzugeben?']) {
      const a = shop.ask(question);
      expect(a.grounded, question).toBe(true);
      expect(shop.titleOf(a)[0], question).toBe('Kann ich Artikel nach Ablauf der Widerrufsfrist zurückgeben?');
    }
  });

  it('gives each rule its other forms, and nothing for a word none applies to', () => {
    expect(germanRelatives('rueckgabe')).toEqual(expect.arrayContaining(['rueckgeben', 'zurueckgeben']));
    expect(germanRelatives('zurueckgeben')).toEqual(expect.arrayContaining(['zurueckgabe', 'rueckgabe']));
    expect(germanRelatives('zurueckzugeben')).toEqual(expect.arrayContaining(['zurueckgeben', 'rueckgabe']));
    expect(germanRelatives('anzumelden')).toEqual(['anmelden']);
    expect(germanRelatives('ruecknahme')).toContain('zuruecknehmen');
    expect(germanRelatives('ankunft')).toEqual(['ankommen']);
    expect(germanRelatives('rueckerstattung')).toEqual(['zurueckerstattung']);
    expect(germanRelatives('lieferung')).toEqual([]);
    // The ending alone is the word itself, not a derivation of it.
    expect(germanRelatives('gabe')).toEqual([]);
  });

  it('meets a person as sites name all genders ("Teilnehmende", "Studierende") and as visitors write ("Teilnehmer", "Studenten")', () => {
    expect(germanRelatives('teilnehmende')).toEqual(['teilnehmer', 'teilnehmern']);
    expect(germanRelatives('teilnehmer')).toEqual(['teilnehmende', 'teilnehmenden']);
    expect(germanRelatives('studierenden')).toEqual(['student', 'studenten']);
    expect(germanRelatives('studenten')).toEqual(['studierende', 'studierenden']);
    expect(germanRelatives('kundinnen')).toEqual(['kund', 'kunden', 'kundn']);
    const school = knowledgeBase(`# Sprachschule

## Kursgröße
Ein Kurs hat höchstens 12 Teilnehmende, damit jeder oft zu Wort kommt.

## Rabatte
Studierende und Auszubildende bekommen 10 % Rabatt auf alle Abendkurse.
`);
    const size = school.ask('Wie viele Teilnehmer sind in einem Kurs?');
    expect(size.answer).toContain('12 Teilnehmende');
    const discount = school.ask('Bekommen Studenten Rabatt?');
    expect(discount.answer).toContain('Studierende und Auszubildende');
  });
});

describe('French verbs that the stemmer does not bring together', () => {
  const shop = knowledgeBase(
    JSON.stringify([
      { question: "D'où viennent vos thés et sont-ils bio ?", answer: 'Nos thés viennent de Chine, du Japon, d’Inde et du Sri Lanka. La plupart sont issus de l’agriculture biologique.' },
      { question: 'Comment suivre ma commande ?', answer: 'Vous recevez un numéro de suivi par e-mail dès que le colis est remis au transporteur.' },
      { question: 'Quels moyens de paiement acceptez-vous ?', answer: 'Nous acceptons la carte bancaire, PayPal et le virement.' },
      { question: 'Comment conserver mon thé ?', answer: 'Gardez votre thé à l’abri de la lumière et de l’humidité.' },
    ]),
    'json',
  );

  it('meets a form of an irregular verb with its other forms ("vient" / "viennent", "reçu" / "recevez")', () => {
    const origin = shop.ask('Votre thé, il vient de quel pays ?');
    expect(shop.titleOf(origin)).toEqual(["D'où viennent vos thés et sont-ils bio ?"]);
    expect(origin.answer).toContain('Chine');
    const tracking = shop.index.expand("Je n'ai pas reçu de numéro de suivi").words.flatMap((w) => w.matches.map((m) => m.term));
    expect(tracking).toContain(shop.index.expand('recevez').words[0]?.term);
  });

  it('gives a form its family with its prefix, and nothing for words that are no form listed or more often nouns', () => {
    expect(frenchRelatives('vient')).toEqual(expect.arrayContaining(['viennent', 'venir', 'venu']));
    expect(frenchRelatives('provient')).toEqual(expect.arrayContaining(['proviennent', 'provenir']));
    expect(frenchRelatives('repris')).toEqual(expect.arrayContaining(['reprend', 'reprendre']));
    expect(frenchRelatives('envoyez')).toContain('envoie');
    for (const word of ['part', 'vue', 'mis', 'colis', 'viande']) expect(frenchRelatives(word), word).toEqual([]);
  });
});

describe('names of several words', () => {
  const app = knowledgeBase(`# Help centre

## Slack
Connect Slack under Settings › Integrations › Slack; the integration is included in the Team plan.

## Signing in
Anyone can use the "Sign in with Google" or "Sign in with Microsoft" buttons.

## Calendars
Shifts sync to Google Calendar and Outlook within 15 minutes.
`);

  it('are refused when no record writes the name ("Microsoft Teams" is not "Microsoft" and "Team")', () => {
    expect(app.ask('Do you integrate with Microsoft Teams?').grounded).toBe(false);
    const calendar = app.ask('Can my shifts show up in Google Calendar?');
    expect(calendar.grounded).toBe(true);
    expect(app.titleOf(calendar)[0]).toBe('Help centre › Calendars');
    expect(app.index.expand('Do you integrate with Microsoft Teams?').words.map((w) => w.phrase)).toEqual([undefined, 'microsoft teams', 'microsoft teams']);
  });

  it('are written by a record that has their words in order, a word or two apart, in any form ("Cast-iron casseroles", "Glass Cone Dripper")', () => {
    const shop = knowledgeBase(`# Kitchen shop

## Shipping abroad
We ship to Japan and Mexico. Cast-iron casseroles can't be sent to Mexico because of courier weight limits.

## Induction
All our stainless-steel and cast-iron pans work on induction.

## Drippers
The Glass Cone Dripper comes with 10 paper filters.
`);
    const casserole = shop.ask('Does the Cast Iron Casserole work on induction?');
    expect(casserole.grounded).toBe(true);
    expect(shop.titleOf(casserole)[0]).toBe('Kitchen shop › Induction');
    expect(shop.ask('Does the Glass Dripper come with filters?').answer).toContain('10 paper filters');
  });

  it('are not read in a question written in title case, nor at the start of a sentence, nor in German', () => {
    expect(app.index.expand('Do You Integrate With Slack Or Google Calendar?').words.every((w) => w.phrase === undefined)).toBe(true);
    expect(app.index.expand('Microsoft Teams: do you integrate with it?').words.every((w) => w.phrase === undefined)).toBe(true);
    expect(german.index.expand('Liefert ihr Fahrräder nach Österreich?').words.every((w) => w.phrase === undefined)).toBe(true);
    expect(app.ask('Do You Integrate With Slack?').grounded).toBe(true);
  });
});

describe('places the records do not name', () => {
  it('meets a town with its country, in German and French ("Wien" → Österreich, "Genève" → Suisse)', () => {
    const a = german.ask('Liefert ihr auch nach Wien?');
    expect(a.grounded).toBe(true);
    expect(german.titleOf(a)[0]).toBe('Häufige Fragen › Versand');
    const b = french.ask('Vous livrez à Genève ?');
    expect(b.grounded).toBe(true);
    expect(french.titleOf(b)[0]).toBe('Questions fréquentes › Livraison');
    expect(b.answer).toContain('14,90 €');
  });

  it('reads a German noun that is also a town as the noun, unless a place is named ("fürs Porto", "in Porto")', () => {
    const eu = knowledgeBase(`# Versand\n\nWir liefern in alle Länder der EU. Die Versandkosten betragen 4,90 €.\n`);
    const placeTerms = (question: string, surface: string, kb = eu) => kb.index.expand(question).words.find((w) => w.surface === surface)?.matches.map((m) => m.term) ?? [];
    // Porto is a town in Portugal, in the EU, and German for postage.
    expect(placeTerms('Was muss ich fürs Porto zahlen?', 'porto')).toEqual([]);
    expect(placeTerms('Liefert ihr auch nach Porto?', 'porto')).toContain('eu');
    expect(placeTerms('Ich wohne in Linz, wie lange dauert die Lieferung?', 'linz', german)).toContain('oesterreich');
  });

  it('does not take a place for a variant of a function word ("Wien" is not "wie" + n)', () => {
    const words = german.index.expand('Wien').words;
    expect(words[0]?.matches.map((m) => m.term)).not.toContain('wie');
    expect(words[0]?.matches.map((m) => m.term)).toContain('oesterreich');
  });

  it('meets a member country with the European Union, and a town with it too', () => {
    const eu = knowledgeBase('# Shipping\n\nWe deliver to all EU countries in 3 to 5 working days.\n');
    expect(eu.ask('Do you ship to Denmark?').answer).toContain('all EU countries');
    expect(eu.ask('Can you deliver to Copenhagen?').answer).toContain('all EU countries');
  });

  it('takes a German country name for a place though it is a common word (German writes every noun with a capital)', () => {
    const eu = knowledgeBase('# Versand\n\nWir liefern in alle EU-Länder, die Lieferzeit beträgt 3 bis 5 Werktage.\n\n# Sortiment\n\nWir verkaufen Fahrräder und Zubehör.\n');
    expect(eu.index.language).toBe('de');
    const a = eu.ask('Liefert ihr auch nach Italien?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toContain('alle EU-Länder');
  });

  it('reads a place named in several words as one place ("Mexico City", "New York", "Frankfurt am Main")', () => {
    const city = shop.ask('Hi, I live in Mexico City, can I order from you?');
    expect(city.grounded).toBe(true);
    expect(shop.titleOf(city)[0]).toBe('Shop FAQ › Shipping');
    const york = shop.ask('Can you send my order to New York?');
    expect(shop.titleOf(york)[0]).toBe('Shop FAQ › Shipping');
    expect(york.answer).toContain('within the United States');
    // "city" and "new" are not topics of their own: one word, weighed as a name.
    const words = shop.index.expand('Do you ship to New York?').words;
    expect(words.map((w) => w.surface)).toEqual(['ship', 'new york']);
    expect(words[1]?.matches.map((m) => m.term)).toEqual(expect.arrayContaining(['unit', 'state']));
    const de = knowledgeBase('# Versand\n\nWir liefern innerhalb Deutschlands in 1 bis 2 Werktagen.\n\n# Sortiment\n\nWir verkaufen Fahrräder und Zubehör.\n');
    const frankfurt = de.ask('Liefert ihr nach Frankfurt am Main?');
    expect(frankfurt.grounded).toBe(true);
    expect(frankfurt.answer).toContain('1 bis 2 Werktagen');
    expect(de.index.expand('Liefert ihr nach Frankfurt am Main?').words.map((w) => w.surface)).toEqual(['liefert', 'frankfurt am main']);
    // "Lieferung" and "liefern": a stem, two endings.
    const delivery = de.ask('Wie lange dauert die Lieferung nach Frankfurt am Main?');
    expect(delivery.grounded).toBe(true);
    expect(delivery.answer).toContain('1 bis 2 Werktagen');
  });

  it('meets a town with the short name the records give its country ("London" → "UK delivery")', () => {
    const uk = knowledgeBase('# UK delivery\n\nStandard UK delivery costs £3.95 and takes 2 to 4 working days.\n\n# Europe\n\nWe ship to all EU countries for £9.95.\n');
    const a = uk.ask('Do you deliver to London?');
    expect(a.grounded).toBe(true);
    expect(uk.titleOf(a)[0]).toBe('UK delivery');
  });

  it('meets a country with its other names ("USA" → "United States", "Deutschland" → "Germany")', () => {
    const usa = shop.ask('How much is shipping to the USA?');
    expect(shop.titleOf(usa)[0]).toBe('Shop FAQ › Shipping');
    const de = knowledgeBase('# Germany\n\nWe deliver to Germany in 3 days.\n\n# Returns\n\nReturns are free within 30 days.\n');
    expect(de.titleOf(de.ask('Do you deliver to Deutschland?'))[0]).toBe('Germany');
  });

  it('reads "US" in capitals as the country, and "us" as the pronoun', () => {
    expect(shop.titleOf(shop.ask('How long does delivery to the US take?'))[0]).toBe('Shop FAQ › Shipping');
    expect(shop.index.expand('How long does delivery to the US take?').words.map((w) => w.surface)).toContain('usa');
    expect(shop.index.expand('can you send it back to us?').words.map((w) => w.surface)).not.toContain('usa');
    expect(shop.index.expand('CAN YOU SEND IT TO US').words.map((w) => w.surface)).not.toContain('usa');
  });

  it('reads the records the same way: their "US" is the country, their "contact us" no match for a question\'s "us"', () => {
    const faq = qaKnowledgeBase([
      ['How can I contact you?', 'Email us at help@shop.example or call us on 020 7946 0000. Tell us your order number.'],
      ['Where do you ship?', 'We ship within the US and to Canada. Orders arrive in 3 to 5 business days.'],
      ['Can I return an item?', 'Send it back to us within 30 days for a full refund.'],
    ]);
    // The return record's "to us" was the question's "US": it answered "How long does delivery to the US take?".
    expect(faq.titleOf(faq.ask('How long does delivery to the US take?'))).toEqual(['Where do you ship?']);
    expect(faq.ask('Can we bring our dog with us?').grounded).toBe(false);
    expect(faq.ask('Can my friends join us?').grounded).toBe(false);
  });

  it('does not read ordinary words in a row as a place unless written as a name ("long beach" towel, Long Beach)', () => {
    expect(shop.index.expand('is there a long beach towel').words.map((w) => w.surface)).toEqual(['long', 'beach', 'towel']);
    expect(shop.index.expand('Do you ship to Long Beach?').words.map((w) => w.surface)).toContain('long beach');
  });

  it('still refuses what the records do not say about a place', () => {
    expect(german.ask('Habt ihr eine Filiale in München?').grounded).toBe(false);
  });
});

describe('taking a way to pay', () => {
  it('reads "Do you take insurance?" as asking whether it is accepted', () => {
    const clinic = qaKnowledgeBase([
      ['Do you accept health insurance?', 'Yes. We are registered with Bupa, AXA Health and Aviva, and bill the insurer directly.'],
      ['Can I get a receipt for my insurance claim?', 'Yes. We email an itemised receipt after every session, which insurers ask for.'],
      ['How long does a session take?', 'A follow-up session takes 30 minutes.'],
    ]);
    const a = clinic.ask('do you take insurance');
    expect(clinic.titleOf(a)).toEqual(['Do you accept health insurance?']);
  });
});

describe('chat abbreviations', () => {
  it('spells out "hw much", "u" and "ur" before the question is read', () => {
    const a = catalogue.ask('hw much is the copper kettle');
    expect(a.grounded).toBe(true);
    expect(a.answer).toMatch(/^Copper Kettle \(£74\)/);
    expect(shop.ask('can u ship to mexico').answer).toContain('Canada and Mexico');
  });
});

describe('a product asked for something its record does not hold', () => {
  const shopWithCare = knowledgeBase(
    JSON.stringify([
      { name: 'Merino Crew Sweater', price: '89 EUR', description: 'A soft crew-neck sweater knitted from fine merino wool.', specs: { Colors: 'navy, grey', Material: '100% merino wool' } },
      { question: 'How do I care for merino?', answer: 'Wash merino garments on a wool cycle at 30 °C. Dry flat and never tumble dry.' },
    ]),
    'json',
  );

  it('is refused rather than answered with the product’s name and price', () => {
    expect(catalogue.ask('Does the Copper Kettle connect to a phone app over Bluetooth?').grounded).toBe(false);
    expect(catalogue.ask('What warranty do you give on the Arden Tamper 51 mm?').grounded).toBe(false);
  });

  it('is answered from another record that holds it', () => {
    const a = shopWithCare.ask('Can I put my merino sweater in the tumble dryer?');
    expect(a.grounded).toBe(true);
    expect(a.answer).toContain('never tumble dry');
  });

  it('still answers what the record does hold, and lists fields for an ordinary word ("heavy")', () => {
    expect(catalogue.ask('How much is the Copper Kettle?').answer).toContain('£74');
    expect(catalogue.ask('What does the Arden Tamper 58 mm fit?').answer).toContain('58 mm baskets');
  });
});

/** A small German garden shop's catalogue. */
const garden = knowledgeBase(
  JSON.stringify([
    { name: 'Akku-Rasenmäher RM 36-37', price: '349,00 €', category: 'Rasenmäher', description: 'Für Rasenflächen bis 400 m², ohne Kabel.', specs: { Laufzeit: 'bis zu 40 Minuten', Schnittbreite: '37 cm', Gewicht: '15,8 kg' } },
    { name: 'Spindelmäher 33', price: '119,00 €', category: 'Rasenmäher', description: 'Schneidet leise, ohne Strom und Benzin.', specs: { Schnittbreite: '33 cm', Gewicht: '8,2 kg' } },
    { name: 'Akku-Heckenschere HS 18-50', price: '129,00 €', category: 'Heckenscheren', description: 'Für Hecken bis 2 m Höhe.', specs: { Schwertlänge: '50 cm', Gewicht: '2,6 kg' } },
    { name: 'Bio-Rasendünger 5 kg', price: '24,90 €', category: 'Dünger', description: 'Organischer Langzeitdünger. Unbedenklich für Kinder und Haustiere, sobald er eingeregnet ist.', specs: { Inhalt: '5 kg', 'Reicht für': 'ca. 150 m²' } },
    { name: 'Zink-Gießkanne 10 l', price: '39,90 €', category: 'Gießkannen', description: 'Aus feuerverzinktem Stahl, mit abnehmbarer Brause.', specs: { Fassungsvermögen: '10 l', Gewicht: '1,9 kg' } },
    { name: 'Gartenschlauch 20 m', price: '29,90 €', category: 'Bewässerung', description: 'Knickfester Schlauch mit Gewebe.', specs: { Durchmesser: '1/2 Zoll', Länge: '20 m' } },
  ]),
  'json',
);

describe('two products named in one question', () => {
  const grinders = knowledgeBase(
    JSON.stringify([
      { name: 'Fellside Hand Grinder', price: '£129', sku: 'GRD-FEL-HND', category: 'Grinders', description: 'A hand grinder for travel.', specs: { Burrs: '38 mm conical, hardened steel', Weight: '640 g' } },
      { name: 'Fellside E64 Single-Dose Grinder', price: '£549', sku: 'GRD-FEL-E64', category: 'Grinders', description: 'A single-dose grinder with a bellows.', specs: { Burrs: '64 mm flat, coated steel', Weight: '6.2 kg' } },
      { name: 'Fellside E48 Electric Grinder', price: '£289', sku: 'GRD-FEL-E48', category: 'Grinders', description: 'An electric grinder for every day.', specs: { Burrs: '48 mm flat, steel', Weight: '3.1 kg' } },
      { name: 'Arden Tamper 58 mm', price: '£38', sku: 'TAM-58', category: 'Tampers', description: 'A flat stainless tamper.', specs: { Fits: '58 mm baskets', Weight: '450 g' } },
      { name: 'Knock Box', price: '£29', sku: 'KNK-01', category: 'Accessories', description: 'Somewhere to knock out the used coffee.', specs: { Material: 'stainless steel, rubber bar' } },
      { name: 'Lintel One Espresso Machine', price: '£649', sku: 'ESP-LIN-ONE', category: 'Espresso machines', description: 'A single-boiler machine; one boiler for brewing and steam.', specs: { Portafilter: '58 mm' } },
      { name: 'Lintel Compact Espresso Machine', price: '£329', sku: 'ESP-LIN-CMP', category: 'Espresso machines', description: 'A small thermoblock machine.', specs: { Portafilter: '51 mm' } },
    ]),
    'json',
  );

  it('answers each of them, the same field of both', () => {
    const burrs = grinders.ask('What burr size do the Fellside hand grinder and the E64 have?');
    expect(burrs.answer).toContain('38 mm conical');
    expect(burrs.answer).toContain('64 mm flat');
    expect(grinders.titleOf(burrs).sort()).toEqual(['Fellside E64 Single-Dose Grinder', 'Fellside Hand Grinder']);

    const prices = grinders.ask('How much are the Arden tamper and the knock box each?');
    expect(prices.answer).toContain('£38');
    expect(prices.answer).toContain('£29');
  });

  it('answers a question for prices with the names and prices, not every field of each', () => {
    const prices = grinders.ask('Thinking of getting the Lintel One plus the E48 electric grinder - how much are they?');
    expect(grinders.titleOf(prices).sort()).toEqual(['Fellside E48 Electric Grinder', 'Lintel One Espresso Machine']);
    expect(prices.answer).toContain('Fellside E48 Electric Grinder (£289)');
    expect(prices.answer).toContain('Lintel One Espresso Machine (£649)');
    // Not the burrs, the weight, the portafilter: nothing was asked of them.
    expect(prices.answer).not.toMatch(/burrs:|weight:|portafilter:/);
  });

  it('takes a product as named when the question leaves out only the size in its name ("a gas canister" / "Gas Canister 230 g")', () => {
    const stoves = knowledgeBase(
      JSON.stringify([
        { name: 'Ember Gas Stove', price: '£34', category: 'Stoves', description: 'A tiny screw-on burner that folds down.', specs: { Fuel: 'butane/propane screw-thread canisters (EN 417)', Weight: '78 g' } },
        { name: 'Gas Canister 230 g', price: '£6.50', category: 'Fuel', description: 'A screw-thread gas canister with a butane/propane mix.', specs: { 'Burn time': 'approx. 75 min at full output' } },
        { name: 'Fuel Bottle 0.6 L', price: '£22', category: 'Fuel', description: 'An aluminium bottle for liquid fuel.', specs: { Capacity: '0.6 L' } },
        { name: 'Cinder Stove System 1.0 L', price: '£119', category: 'Stoves', description: 'A stove with a pot that boils fast.', specs: { Fuel: 'screw-thread canisters' } },
        { name: 'Kestrel 1 Tent', price: '£185', category: 'Tents', description: 'A light solo tent with one porch.', specs: { Sleeps: '1 person', Weight: '1.35 kg' } },
        { name: 'Kestrel 2 Tent', price: '£249', category: 'Tents', description: 'The two-person version.', specs: { Sleeps: '2 people', Weight: '1.9 kg' } },
        { name: 'Trailbase Foam Mat', price: '£16', category: 'Mats', description: 'A closed-cell foam mat.', specs: { 'R-value': '2.0', Weight: '280 g' } },
        { name: 'Lumen 350 Headtorch', price: '£39', category: 'Headtorches', description: 'Our brightest headtorch.', specs: { Battery: 'rechargeable, USB-C', Weight: '78 g' } },
        { name: 'Scarth 28 Daypack', price: '£69', category: 'Rucksacks', description: 'A day rucksack with a rain cover.', specs: { Capacity: '28 litres', Weight: '950 g' } },
      ]),
      'json',
    );
    const a = stoves.ask('I need a stove and some fuel to go with it. What would the Ember burner plus one gas canister cost me?');
    expect(stoves.titleOf(a)).toEqual(['Ember Gas Stove', 'Gas Canister 230 g']);
    expect(a.answer).toContain('£6.50');
  });

  it('answers a German or French dimension adjective with the field that names the dimension ("Wie dick …" → "Durchmesser")', () => {
    const hose = garden.ask('Wie dick ist euer Gartenschlauch?');
    expect(garden.titleOf(hose)).toEqual(['Gartenschlauch 20 m']);
    expect(hose.answer).toContain('1/2 Zoll');
    // "Wie hoch ist der Preis?" asks for a price: "hoch" is not read as a height, which the hose would lack.
    const price = garden.ask('Wie hoch ist der Preis für den Gartenschlauch?');
    expect(garden.titleOf(price)).toEqual(['Gartenschlauch 20 m']);
    expect(price.answer).toContain('29,90 €');
    const furniture = knowledgeBase(
      JSON.stringify([
        { name: 'Table pliante Estran', price: '89 €', category: 'Tables', description: 'Une table de jardin en acacia qui se replie à plat.', specs: { Longueur: '120 cm', Largeur: '70 cm', Hauteur: '74 cm' } },
        { name: 'Chaise longue Bélair', price: '129 €', category: 'Chaises', description: 'Une chaise longue réglable en cinq positions.', specs: { Longueur: '190 cm', Poids: '9 kg' } },
        { name: 'Parasol Mistral', price: '59 €', category: 'Parasols', description: 'Un parasol inclinable avec housse.', specs: { Diamètre: '250 cm', Mât: 'aluminium' } },
      ]),
      'json',
    );
    const table = furniture.ask('La table Estran, elle est large de combien ?');
    expect(furniture.titleOf(table)).toEqual(['Table pliante Estran']);
    expect(table.answer).toContain('70 cm');
  });

  it('takes a product as named when the question leaves out only the model code in its name ("dem Akku-Rasenmäher" / "Akku-Rasenmäher RM 36-37")', () => {
    const a = garden.ask('Ich schwanke zwischen dem Akku-Rasenmäher und dem Spindelmäher. Wie schwer sind die beiden?');
    expect(garden.titleOf(a).sort()).toEqual(['Spindelmäher 33', 'Akku-Rasenmäher RM 36-37'].sort());
    expect(a.answer).toContain('15,8 kg');
    expect(a.answer).toContain('8,2 kg');
  });

  it('reads small numbers written as words as the digits the records write ("the two-person Kestrel" / "Kestrel 2 Tent", "sechs Leute" / "6 Personen")', () => {
    const tents = knowledgeBase(
      JSON.stringify([
        { name: 'Kestrel 1 Tent', price: '£185', category: 'Tents', description: 'A light solo tent with one porch.', specs: { Sleeps: '1 person', Weight: '1.35 kg' } },
        { name: 'Kestrel 2 Tent', price: '£249', category: 'Tents', description: 'The two-person version, with a porch on each side.', specs: { Sleeps: '2 people', Weight: '1.9 kg' } },
        { name: 'Hollin 3 Tent', price: '£329', category: 'Tents', description: 'A roomy tent for three.', specs: { Sleeps: '3 people', Weight: '2.6 kg' } },
      ]),
      'json',
    );
    const both = tents.ask('How much are the one-person and the three-person tents?');
    expect(tents.titleOf(both).sort()).toEqual(['Hollin 3 Tent', 'Kestrel 1 Tent']);
    expect(both.answer).toContain('£185');
    expect(both.answer).toContain('£329');
    const flat = qaKnowledgeBase([
      ['Wie viele Personen dürfen in einer Wohnung übernachten?', 'Die kleinen Wohnungen sind für höchstens 4 Personen, die großen für höchstens 6 Personen ausgelegt.'],
      ['Wann ist die Anreise?', 'Die Anreise ist ab 15 Uhr möglich, in Wohnung 1 ab 16 Uhr.'],
      ['Gibt es Parkplätze?', 'Zu jeder Wohnung gehört ein Stellplatz.'],
    ]);
    const terms = (question: string) => flat.index.expand(question).words.flatMap((w) => w.matches.map((m) => m.term));
    expect(terms('Wir sind sechs Leute. Passen wir in eine Wohnung?')).toContain('6');
    // "eine" is an article, not the number 1 (nor is English "one": "the Lintel One", "which one").
    expect(terms('Wir sind sechs Leute. Passen wir in eine Wohnung?')).not.toContain('1');
    // And the other way: a question's digits meet the records' words.
    expect(shop.ask('Is there a 2 year warranty on kettles?').answer).toContain('two-year warranty');
  });

  it('answers "both", "each", "beide … jeweils" with the field asked for of every product of the kind', () => {
    const weights = grinders.ask('How much do both grinders weigh?');
    expect(grinders.titleOf(weights).sort()).toEqual(['Fellside E48 Electric Grinder', 'Fellside E64 Single-Dose Grinder', 'Fellside Hand Grinder']);
    for (const weight of ['640 g', '6.2 kg', '3.1 kg']) expect(weights.answer).toContain(weight);
    const prices = grinders.ask('What do the Lintel machines cost each?');
    expect(prices.answer).toContain('Lintel One Espresso Machine (£649)');
    expect(prices.answer).toContain('Lintel Compact Espresso Machine (£329)');
    const burrs = grinders.ask('What burrs do all your grinders have?');
    for (const size of ['38 mm conical', '64 mm flat', '48 mm flat']) expect(burrs.answer).toContain(size);
    // The words naming the kind are all of what the product's name says: one machine named, one machine answered.
    expect(grinders.titleOf(grinders.ask('What portafilter does each Lintel Compact take?'))).toEqual(['Lintel Compact Espresso Machine']);
    const mowers = garden.ask('Wie schwer sind eure beiden Rasenmäher jeweils?');
    expect(garden.titleOf(mowers).sort()).toEqual(['Akku-Rasenmäher RM 36-37', 'Spindelmäher 33'].sort());
    expect(mowers.answer).toContain('15,8 kg');
    expect(mowers.answer).toContain('8,2 kg');
    // The same field of each, though one product's description repeats the question's words
    // ("für hohe Äste und dicke Triebe"); "dick" meets the thickness "Schnittstärke".
    const loppers = setKnowledgeBase('garden-catalogue-de/catalogue.json');
    expect(loppers.ask('Wie dicke Äste schaffen eure beiden Astscheren jeweils?').answer).toBe(
      'Lindner Teleskop-Astschere 45 (54,90 €) — schnittstärke: bis 45 mm [1] Lindner Amboss-Astschere 35 (29,90 €) — schnittstärke: bis 35 mm [2]',
    );
  });

  it('meets a German dimension adjective with a field whose compound ends with the dimension ("breit" → "Schnittbreite"), not with "Stärke" in "Lautstärke"', () => {
    // Another record uses "breit" itself, so the question's word is met as written and its own
    // compounds are not looked for: only the dimension's noun finds "Schnittbreite".
    const shop = knowledgeBase(
      JSON.stringify([
        { name: 'Spindelmäher 33', price: '119,00 €', category: 'Rasenmäher', description: 'Schneidet leise, ohne Strom und Benzin.', specs: { Schnittbreite: '33 cm', Gewicht: '8,2 kg' } },
        { name: 'Schubkarre 100 l', price: '84,00 €', category: 'Transport', description: 'Mit einem breiten, pannensicheren Reifen.', specs: { Traglast: '150 kg' } },
        { name: 'Laubbläser LB 18', price: '99,00 €', category: 'Laubbläser', description: 'Handlich und dick gepolstert.', specs: { Lautstärke: '82 dB(A)', Gewicht: '2,2 kg' } },
      ]),
      'json',
    );
    const width = shop.ask('Wie breit mäht der Spindelmäher?');
    expect(shop.titleOf(width)).toEqual(['Spindelmäher 33']);
    expect(width.answer).toContain('33 cm');
    const terms = (question: string) => shop.index.expand(question).words.flatMap((w) => w.matches.map((m) => m.term));
    expect(terms('Wie breit mäht der Spindelmäher?')).toContain('schnittbreit');
    expect(terms('Wie dick ist der Laubbläser?')).not.toContain('lautstark');
  });

  it('answers "which <kind> fits <product>?" with the products of the kind that give a size the named one gives, and each line that gives it', () => {
    const espresso = knowledgeBase(
      JSON.stringify([
        { name: 'Lintel Compact Espresso Machine', price: '£329', category: 'Espresso machines', description: 'A small thermoblock machine.', specs: { Portafilter: '51 mm', 'Water tank': '1.2 L' } },
        { name: 'Lintel One Espresso Machine', price: '£649', category: 'Espresso machines', description: 'A single-boiler machine.', specs: { Portafilter: '58 mm', 'Water tank': '2 L' } },
        { name: 'Arden Tamper 58.5 mm', price: '£38', category: 'Tampers', description: 'Our best-selling tamper.', specs: { Diameter: '58.5 mm', Fits: '58 mm baskets' } },
        { name: 'Arden Tamper 51 mm', price: '£32', category: 'Tampers', description: 'The same design, scaled down for smaller machines.', specs: { Diameter: '51 mm', Fits: '51 mm baskets' } },
        { name: 'Precision Filter Basket 58 mm', price: '£24', category: 'Espresso accessories', description: 'A tightly toleranced basket.', specs: { Size: '58 mm' } },
        { name: 'Knock Box', price: '£29', category: 'Espresso accessories', description: 'Somewhere to knock out the used coffee.', specs: { Material: 'stainless steel' } },
      ]),
      'json',
    );
    const compact = espresso.ask('Which tamper fits the Lintel Compact?');
    expect(espresso.titleOf(compact)).toEqual(['Lintel Compact Espresso Machine', 'Arden Tamper 51 mm']);
    expect(compact.answer).toMatch(/portafilter: 51 mm.*Arden Tamper 51 mm \(£32\) — (?:fits: 51 mm baskets|diameter: 51 mm)/);
    expect(espresso.titleOf(espresso.ask('what tamper do i need for my lintel one')).sort()).toEqual(['Arden Tamper 58.5 mm', 'Lintel One Espresso Machine']);
    // No basket of the Compact's size: refused, not answered with the 58 mm one.
    expect(espresso.ask('Which filter basket fits the Lintel Compact?').grounded).toBe(false);
    // Whether it comes with one is not which one fits.
    expect(espresso.titleOf(espresso.ask('Does the Lintel One come with a tamper?'))).not.toContain('Arden Tamper 58.5 mm');
    const batteries = knowledgeBase(
      JSON.stringify([
        { name: 'Akku-Heckenschere HS 18-50', price: '129,00 €', category: 'Heckenscheren', description: 'Leise und kabellos.', specs: { Akku: '18 V / 2,0 Ah', Schwertlänge: '50 cm' } },
        { name: 'Ersatzakku 18 V 4,0 Ah', price: '79,00 €', category: 'Akkus', description: 'Passt in alle Geräte der 18-V-Reihe.', specs: { Spannung: '18 V', Kapazität: '4,0 Ah' } },
        { name: 'Ersatzakku 36 V 5,0 Ah', price: '149,00 €', category: 'Akkus', description: 'Für den Rasenmäher.', specs: { Spannung: '36 V', Kapazität: '5,0 Ah' } },
        { name: 'Gartenschlauch 20 m', price: '29,90 €', category: 'Bewässerung', description: 'Knickfester Schlauch.', specs: { Durchmesser: '1/2 Zoll' } },
      ]),
      'json',
    );
    const battery = batteries.ask('Welcher Ersatzakku passt in die Heckenschere?');
    expect(batteries.titleOf(battery)).toEqual(['Akku-Heckenschere HS 18-50', 'Ersatzakku 18 V 4,0 Ah']);
  });

  it('does not answer "which <kind> fits <product>?" with a product of a third kind that says it fits', () => {
    // The catalogue (eval/sets/catalogue-en): "Bottomless Portafilter 58 mm … Fits the Lintel One and Lintel Duo."
    const catalogue = setKnowledgeBase('catalogue-en/catalogue.json');
    const one = catalogue.ask('Which tamper fits the Lintel One?');
    expect(catalogue.titleOf(one)).toEqual(['Lintel One Espresso Machine', 'Arden Tamper 58.5 mm']);
    expect(one.answer).not.toContain('Portafilter 58 mm (£59)');
    // Asked of itself, the portafilter still answers.
    expect(catalogue.titleOf(catalogue.ask('Does the bottomless portafilter fit the Lintel One?'))).toContain('Bottomless Portafilter 58 mm');
  });

  it('lists the products of the kind a question about the range asks for, by name and price', () => {
    const machines = grinders.ask('Do you sell espresso machines?');
    expect(machines.grounded).toBe(true);
    expect(grinders.titleOf(machines).sort()).toEqual(['Lintel Compact Espresso Machine', 'Lintel One Espresso Machine']);
    expect(machines.answer).toMatch(/^Lintel (?:One|Compact) Espresso Machine \(£\d+\) \[1\] Lintel (?:One|Compact) Espresso Machine \(£\d+\) \[2\]$/);
    expect(grinders.titleOf(grinders.ask('What grinders do you have?')).sort()).toEqual(['Fellside E48 Electric Grinder', 'Fellside E64 Single-Dose Grinder', 'Fellside Hand Grinder']);
    expect(grinders.titleOf(grinders.ask('Have you got a hand grinder?'))).toEqual(['Fellside Hand Grinder']);
    // Alone, the words of the question meet only one machine's record first: the range is what lists both.
    expect(grinders.titleOf(grinders.ask('espresso machines')).length).toBe(1);
  });

  it('refuses a question about the range when no product is of that kind, though the words meet records', () => {
    for (const question of ['Do you sell decaf beans?', 'Do you stock descaling solution for the espresso machines?', 'Do you sell replacement burrs for the hand grinder?', 'Do you sell SCA grinders?']) {
      expect(grinders.ask(question).grounded, question).toBe(false);
    }
  });

  it('reads a question about the range with the sentences that give its context', () => {
    // The context's words ("travel", "hand", "grinder") must not answer a question no product answers.
    expect(grinders.ask('Do you sell decaf beans? I want to take some on my travels with the hand grinder.').grounded).toBe(false);
    const machines = grinders.ask('We are opening a small café in May. Do you sell espresso machines?');
    expect(grinders.titleOf(machines).sort()).toEqual(['Lintel Compact Espresso Machine', 'Lintel One Espresso Machine']);
  });

  it('answers a question about the range with a qualifier from the product it names, not with a list', () => {
    const tamper = grinders.ask('Do you sell a tamper for 58 mm baskets?');
    expect(grinders.titleOf(tamper)).toEqual(['Arden Tamper 58 mm']);
    expect(tamper.answer).toContain('58 mm baskets');
  });

  it('answers a colour from the product that names one, and refuses it for a product that names none', () => {
    const kettles = knowledgeBase(
      JSON.stringify([
        { name: 'Gooseneck Electric Kettle 0.9 L', price: '£119', description: 'Set the exact temperature you want. Matte black with a wooden-effect handle.', specs: { Capacity: '0.9 L', Power: '1200 W' } },
        { name: 'Stainless Gooseneck Kettle 1.2 L', price: '£48', description: 'A stovetop kettle for pour-over.', specs: { Capacity: '1.2 L', Hob: 'gas, electric, induction' } },
        { name: 'Milk Jug – Small', price: '£18', description: 'Enough milk for a single flat white.', specs: { Capacity: '350 ml', Finish: 'brushed' } },
        { name: 'Merino Crew Sweater', price: '£89', description: 'A soft crew-neck sweater knitted from fine merino wool.', specs: { Colors: 'navy, grey, forest green', Material: '100% merino wool' } },
        { name: 'Cotton Apron', price: '£24', description: 'A barista apron with two pockets.', specs: { Material: 'organic cotton' } },
      ]),
      'json',
    );
    for (const question of ['What colour is the electric kettle?', 'Does the electric kettle come in white?']) {
      const a = kettles.ask(question);
      expect(kettles.titleOf(a), question).toEqual(['Gooseneck Electric Kettle 0.9 L']);
      expect(a.answer, question).toContain('Matte black');
    }
    expect(kettles.ask('What finish does the small milk jug have?').answer).toContain('brushed');
    // "colours" meets the records' own "Colors" line, which weighs more than a colour alone; where
    // no record says "colour", the word is no topic the answer must share.
    expect(kettles.ask('Which colours is the merino jumper available in?').answer).toContain('navy, grey, forest green');
    const surfaces = (kb: { index: { expand(q: string): { words: readonly { surface: string }[] } } }) => kb.index.expand('Which colours is the jumper available in?').words.map((w) => w.surface);
    expect(surfaces(kettles)).toContain('colours');
    expect(surfaces(knowledgeBase('# Help\n\n## Jumpers\nOur jumpers come in navy and grey.\n\n## Returns\nReturns within 30 days.\n'))).not.toContain('colours');
    for (const question of ['Does the stainless kettle come in red?', 'What colours does the stainless kettle come in?']) {
      expect(kettles.ask(question).grounded, question).toBe(false);
    }
  });

  it('answers a product named in passing, however little of the question it matches', () => {
    const both = grinders.ask('Thinking of getting the Lintel One plus the E48 electric grinder - what do they cost?');
    expect(both.answer).toContain('£289');
    expect(both.answer).toContain('£649');
    expect(both.answer).not.toContain('£329');
  });

  it('does not add a product the question does not name (one that shares the brand and the category word)', () => {
    const one = grinders.ask('What burr size does the Fellside E64 grinder have?');
    expect(grinders.titleOf(one)).toEqual(['Fellside E64 Single-Dose Grinder']);
    const hand = grinders.ask('How heavy is the Fellside hand grinder?');
    expect(grinders.titleOf(hand)).toEqual(['Fellside Hand Grinder']);
  });

  it('does not take an ordinary word of a name for the product ("one box of the filters" is not the Knock Box)', () => {
    const withFilters = knowledgeBase(
      JSON.stringify([
        { name: 'Cone Paper Filters, Size 02', price: '£6.50', sku: 'FLT-CONE-02', category: 'Filters', description: 'Paper filters for the cone dripper.', specs: { 'Pack size': '100 filters' } },
        { name: 'Knock Box', price: '£29', sku: 'KNK-01', category: 'Accessories', description: 'Somewhere to knock out the used coffee.', specs: { Capacity: 'about 15 pucks' } },
        { name: 'Glass Cone Dripper', price: '£24', sku: 'DRP-GLS', category: 'Brewers', description: 'A glass dripper for size 02 filters.', specs: { Cups: '1 to 4' } },
      ]),
      'json',
    );
    const box = withFilters.ask('How many papers do I get in one box of the cone filters?');
    expect(box.answer).toContain('100 filters');
    // Before: the Knock Box's price and capacity were added, "box" taken for its name.
    expect(withFilters.titleOf(box)).toEqual(['Cone Paper Filters, Size 02']);
    // Named by its own word too, it is still answered beside another product.
    const both = withFilters.ask('What do the glass dripper and the knock box cost?');
    expect(withFilters.titleOf(both).sort()).toEqual(['Glass Cone Dripper', 'Knock Box']);
  });
});

/** Each question is answered, and its answer holds the text given with it. */
function expectAnswers(cases: readonly (readonly [{ ask(q: string): Answer }, string, string])[]): void {
  for (const [kb, question, expected] of cases) {
    const a = kb.ask(question);
    expect(a.grounded, question).toBe(true);
    expect(a.answer, question).toContain(expected);
  }
}

describe('contact details', () => {
  const english = knowledgeBase(`# Help

## Passwords
Click "Forgot password?" and enter your email address; the reset link in the email is valid for 60 minutes.

## Returns
Send the item back with your order number on the parcel. We email you when the refund is on its way.

## Contact
Our team answers on weekdays from 9am to 5pm. You can reach us at hello@kettle.example or on 0114 496 0321.

## App
The app runs on any phone with Android 10 or iOS 16.

## Account
Save your delivery addresses in your account to check out faster.
`);
  const german = knowledgeBase(`# Hilfe

## Passwort
Klicke auf „Passwort vergessen?“ und gib deine E-Mail-Adresse ein. Du bekommst eine E-Mail mit einem Link.

## Kundenservice
Wir sind telefonisch unter 0341 2569480 erreichbar, montags bis freitags von 9 bis 17 Uhr. E-Mails an service@speichenwerk.example beantworten wir werktags.

## Versand
Die Lieferzeit beträgt 2 bis 4 Werktage. Die Sendungsnummer steht in der Versandbestätigung.

## Konto
Im Kundenkonto speicherst du deine Adresse und deine E-Mail-Adresse.

## Abholung
Bestellungen kannst du kostenlos in unserem Lager abholen: Gießerstraße 18, 04229 Leipzig.
`);
  const french = knowledgeBase(`# Aide

## Mot de passe
Saisissez votre adresse e-mail sur la page de connexion : vous recevrez un e-mail avec un lien.

## Commande
Indiquez votre numéro de commande dans chaque message.

## Service client
Écrivez-nous à bonjour@theiere.example ou appelez-nous au 04 78 29 61 05, du mardi au samedi de 10 h à 18 h.
`);

  it('answers for a phone number, an email address or opening hours from the record that gives them, though it says neither word', () => {
    expectAnswers([
      [english, "What's your phone number?", '0114 496 0321'],
      [english, "What's your email address?", 'hello@kettle.example'],
      [english, 'Is there a number I can call?', '0114 496 0321'],
      [english, 'When are you open?', '9am to 5pm'],
      [english, 'Are you open on Sundays?', '9am to 5pm'],
      [german, 'Wie ist eure Telefonnummer?', '0341 2569480'],
      [german, 'Wie lautet eure E-Mail-Adresse?', 'service@speichenwerk.example'],
      [german, 'Was sind eure Öffnungszeiten?', '9 bis 17 Uhr'],
      [german, 'Bis wann kann ich anrufen?', '9 bis 17 Uhr'],
      [french, 'Quel est votre numéro de téléphone ?', '04 78 29 61 05'],
      [french, 'Quelle est votre adresse e-mail ?', 'bonjour@theiere.example'],
      [french, 'Quels sont vos horaires ?', 'de 10 h à 18 h'],
      [german, 'Wie lautet eure Adresse?', 'Gießerstraße 18, 04229 Leipzig'],
      [german, 'Wo seid ihr?', 'Gießerstraße 18, 04229 Leipzig'],
    ]);
  });

  it('answers a request to reach a person ("Can I talk to a human?") with the record that gives a phone number or an email address', () => {
    expectAnswers([
      [english, 'Can I talk to a human?', 'hello@kettle.example'],
      [english, 'How can I get in touch?', '0114 496 0321'],
      [english, 'I want to speak to someone', 'hello@kettle.example'],
      [german, 'Wie kann ich euch erreichen?', '0341 2569480'],
      [german, 'Kann ich mit einem Menschen sprechen?', 'service@speichenwerk.example'],
      [french, 'Comment vous contacter ?', '04 78 29 61 05'],
      [french, "Je voudrais parler à quelqu'un", 'bonjour@theiere.example'],
    ]);
    // Records that give no way to reach anyone: refused.
    expect(knowledgeBase(`# Help

## App
The app runs on any phone with Android 10 or iOS 16.

## Returns
Send the item back within 30 days.
`).ask('Can I talk to a human?').grounded).toBe(false);
  });

  it('answers "where is my order?" with how to track it, and not from a record that only tracks time', () => {
    const shop = knowledgeBase(`# Help

## Tracking
As soon as your parcel leaves our warehouse we email you a tracking link.

## Cancelling
You can change or cancel an order within 1 hour of placing it.

## Accounts
You can place an order without an account.
`);
    for (const question of ['Where is my order?', "where's my parcel"]) expect(shop.titleOf(shop.ask(question)), question).toEqual(['Help › Tracking']);
    const laden = knowledgeBase(`# Hilfe

## Sendungsverfolgung
Sobald dein Paket unser Lager verlässt, bekommst du eine E-Mail mit der DHL-Sendungsnummer. Du findest sie auch unter „Meine Bestellungen“.

## Stornieren
Du kannst deine Bestellung innerhalb einer Stunde ändern oder stornieren.
`);
    expect(laden.ask('Wo ist meine Bestellung?').answer).toContain('Sendungsnummer');
    const app = knowledgeBase(`# Help

## Time tracking
Employees clock in and out in the app; their hours are tracked to the minute.

## Geofencing
Time tracking can be limited to a radius around each location.

## Timesheets
Managers approve timesheets weekly. Tracked breaks are shown separately.

## Requests
Employees can request a shift swap or time off from the app.

## Billing
Plans are billed per user per month; invoices are emailed to the account owner.

## Passwords
Use "Forgot password" on the sign-in page to get a reset link.
`);
    expect(app.ask('Where is my order?').grounded).toBe(false);
  });

  it('reads a part that asks only "when are you open" with the rest of the question, not with any record’s hours', () => {
    const shop = knowledgeBase(`# Hilfe

## Kundenservice
Unser Kundenservice ist telefonisch montags bis freitags von 9 bis 17 Uhr erreichbar.

## Abholung
Die Abholung in unserem Lager in Leipzig ist kostenlos, montags bis freitags von 10 bis 18 Uhr.

## Versand
Wir verschicken mit DHL; die Lieferzeit beträgt 2 bis 4 Werktage.
`);
    // On its own, the second part would be answered with the customer service's hours.
    expect(shop.ask('Wann habt ihr da offen?').answer).toContain('9 bis 17 Uhr');
    const a = shop.ask('Kann ich die Sachen auch direkt bei euch in Leipzig mitnehmen statt sie schicken zu lassen? Wann habt ihr da offen?');
    expect(a.answer).not.toContain('9 bis 17 Uhr');
  });

  it('does not take an order number or a phone as a thing for a contact detail', () => {
    expect(english.titleOf(english.ask('Where do I put my order number?'))[0]).toBe('Help › Returns');
    expect(english.titleOf(english.ask('Does the app work on my phone?'))[0]).toBe('Help › App');
  });

  it('refuses a postal address when the records give none, though they speak of the customer’s addresses', () => {
    expect(english.ask("What's your address?").grounded).toBe(false);
  });

  it('refuses a phone number when the records give none, though they mention phones', () => {
    expect(knowledgeBase(`# Help

## App
The app runs on any phone with Android 10 or iOS 16.

## Contact
Write to us at hello@kettle.example; we answer within a day.
`).ask("What's your phone number?").grounded).toBe(false);
  });
});

describe('questions for the address a return goes to', () => {
  const teaShop = setKnowledgeBase('shop-faq-fr/faq.md');

  it('answers "l\'adresse pour les retours" with the postal address of the returns record, which never says "adresse"', () => {
    for (const question of ["Quelle est l'adresse pour les retours ?", "C'est quoi l'adresse de retour ?"]) {
      const answer = teaShop.ask(question);
      expect(teaShop.titleOf(answer), question).toEqual(['Comment effectuer un retour ?']);
      expect(answer.answer, question).toContain('14 impasse des Tisserands');
    }
  });
});

describe('which address a return goes to, in French', () => {
  it('answers "À quelle adresse renvoyer le colis ?" with the record that gives the returns address', () => {
    const shop = setKnowledgeBase('shop-faq-fr/faq.md');
    const a = shop.ask('À quelle adresse renvoyer le colis ?');
    expect(shop.titleOf(a)[0]).toContain('Comment effectuer un retour ?');
    expect(a.answer).toContain('14 impasse des Tisserands');
  });
});

describe('days of the week', () => {
  it('answers "If I order on Sunday, when will it be dispatched?" from the record that speaks of weekends, which never names Sunday', () => {
    const shop = setKnowledgeBase('shop-faq-en/faq.json');
    const sunday = shop.ask('If I order on Sunday, when will it be dispatched?');
    expect(shop.titleOf(sunday)).toEqual(['When will my order be dispatched?']);
    expect(sunday.answer).toContain('at weekends');
  });
});

describe('what a product holds', () => {
  it('answers "how much coffee does an espresso cup hold" with what the cup holds, not with a scale\'s price', () => {
    const catalogue = setKnowledgeBase('catalogue-en/catalogue.json');
    // Read as a price too, "coffee" and "£19" chose the Kitchen Coffee Scale.
    const cups = catalogue.ask('how much coffee does an espresso cup hold');
    expect(catalogue.titleOf(cups)).toEqual(['Espresso Cups with Saucers (Set of 2)']);
    expect(cups.answer).toContain('cup volume: 80 ml');
    expect(catalogue.ask('how much does the large milk jug hold').answer).toContain('capacity: 950 ml');
  });
});

describe('a product asked for a value another product gives in a field it has too', () => {
  it('answers with the named product\'s own field, which the visitor reads as a no', () => {
    const catalogue = setKnowledgeBase('catalogue-en/catalogue.json');
    // The stainless kettle's "Hob compatibility" names induction; the copper kettle's does not.
    const copper = catalogue.ask('can I use the copper kettle on induction');
    expect(catalogue.titleOf(copper)).toEqual(['Copper Gooseneck Pour-Over Kettle 0.6 L']);
    expect(copper.answer).toContain('hob compatibility: gas and electric');
    expect(copper.answer).not.toContain('induction');
    // No product has a field that names a warranty or a colour: still refused.
    expect(catalogue.ask('does the E64 come with a warranty').grounded).toBe(false);
    expect(catalogue.ask('Is the Lintel Duo available in red?').grounded).toBe(false);
  });
});

describe('the cheapest of a kind', () => {
  it('compares only the products the kind’s words name, though an ordinary word names it ("the cheapest espresso machine" is no scale "made for espresso")', () => {
    const coffee = setKnowledgeBase('catalogue-en/catalogue.json');
    const a = coffee.ask("What's the cheapest espresso machine?");
    expect(coffee.titleOf(a)).toEqual(['Lintel Compact Espresso Machine']);
    expect(a.answer).toMatch(/^Lintel Compact Espresso Machine \(£329\)/);
  });
});

describe('a question for what a product is made of', () => {
  it('is answered with the product’s material, though another record writes "made" and none "made of"', () => {
    const { ask } = knowledgeBase(JSON.stringify([
      { name: 'Brew Scale Mini', category: 'Scales', price: '£42', description: 'A slim scale made for espresso that fits on a drip tray.', specs: { 'Maximum load': '2 kg' } },
      { name: 'Espresso Cups (Set of 2)', category: 'Cups', price: '£22', description: 'Thick-walled cups that keep a shot hot.', specs: { Material: 'porcelain', 'Cup volume': '80 ml' } },
      { name: 'Knock Box', category: 'Accessories', price: '£29', description: 'A sturdy box to knock used pucks into.', specs: { Material: 'ABS body, rubber bar' } },
    ]), 'json');
    const cups = ask('What are the espresso cups made of?');
    expect(cups.grounded).toBe(true);
    expect(cups.answer).toMatch(/^Espresso Cups \(Set of 2\) \(£22\)/);
    expect(cups.answer).toContain('porcelain');
    expect(ask("what's the knock box made from").answer).toContain('ABS body');
  });

  it('is answered in German: "Woraus ist …?", "Aus was ist … gemacht?"', () => {
    const { ask } = knowledgeBase(JSON.stringify([
      { name: 'Gießkanne 10 l', category: 'Gießkannen', price: '24,90 €', description: 'Eine robuste Kanne mit langem Ausguss, gemacht für große Beete.', specs: { Material: 'verzinkter Stahl', Inhalt: '10 l' } },
      { name: 'Pflanzschaufel', category: 'Handwerkzeuge', price: '12,90 €', description: 'Handliche Schaufel mit Holzgriff.', specs: { Material: 'Edelstahl, Eschenholz', Gewicht: '180 g' } },
      { name: 'Gartenschere Classic', category: 'Scheren', price: '29,90 €', description: 'Für Zweige bis 20 mm.', specs: { Schnittstärke: '20 mm', Gewicht: '230 g' } },
    ]), 'json');
    const can = ask('Woraus ist die Gießkanne?');
    expect(can.grounded).toBe(true);
    expect(can.answer).toContain('verzinkter Stahl');
    const trowel = ask('Aus was ist die Pflanzschaufel gemacht?');
    expect(trowel.grounded).toBe(true);
    expect(trowel.answer).toContain('Edelstahl, Eschenholz');
  });
});

describe('a delivery that has not come', () => {
  it('is answered from the record of a lost or late order, which never says "arrived" or "received", in English, German and French', () => {
    const cases: [string, string, string, string][] = [
      ['shop-faq-en/faq.json', 'My parcel never arrived', 'What should I do if my order is late or missing?', 'open an investigation'],
      ['shop-faq-en/faq.json', "I haven't received my order yet", 'What should I do if my order is late or missing?', 'open an investigation'],
      ['shop-faq-de/faq.json', 'Ich habe meine Bestellung nie erhalten', 'Was passiert, wenn mein Paket verloren gegangen ist?', 'Nachforschungsauftrag'],
      ['shop-faq-de/faq.json', 'Mein Paket kommt einfach nicht an, was tun?', 'Was passiert, wenn mein Paket verloren gegangen ist?', 'Nachforschungsauftrag'],
      ['shop-faq-fr/faq.md', "Je n'ai jamais reçu ma commande", "Mon colis n'est toujours pas arrivé, que faire ?", 'enquête auprès du transporteur'],
    ];
    for (const [file, question, title, fact] of cases) {
      const shop = setKnowledgeBase(file);
      const answer = shop.ask(question);
      expect(answer.grounded, question).toBe(true);
      expect(shop.titleOf(answer), question).toEqual([title]);
      expect(answer.answer, question).toContain(fact);
    }
  });

  it('leaves a delivery that came damaged to its own record', () => {
    const shop = setKnowledgeBase('shop-faq-en/faq.json');
    expect(shop.titleOf(shop.ask('My item arrived damaged'))).toEqual(['My item arrived damaged. What should I do?']);
  });
});

describe('the section whose own question is the visitor’s', () => {
  it('opens the answer, though an introduction writes the visitor’s words closer together ("Vos thés sont bio ?")', () => {
    const teaShop = setKnowledgeBase('shop-faq-fr/faq.md');
    const answer = teaShop.ask('Vos thés sont bio ?');
    expect(teaShop.titleOf(answer)[0]).toBe("D'où viennent vos thés et sont-ils bio ?");
    expect(answer.answer).toContain('certifiées biologiques');
  });
});

describe("a record's own question, as a starter question taken from the records asks it", () => {
  // The dashboard's "Take from your records" offers these; each must be answered from its record.
  const files = ['shop-faq-en/faq.json', 'shop-faq-de/faq.json', 'shop-faq-fr/faq.md', 'clinic-faq-en/faq.json', 'driving-school-fr/faq.json', 'help-questions-en/help-centre.md', 'holiday-flat-de/help-centre.md'];
  it.each(files)('%s: every title written as a question is answered from its own record first', (file) => {
    const kb = setKnowledgeBase(file);
    const titles = kb.records.flatMap((r) => (r.title?.endsWith('?') ? [r.title] : []));
    expect(titles.length).toBeGreaterThanOrEqual(20);
    const missed = titles.filter((title) => {
      const answer = kb.ask(title);
      return !answer.grounded || kb.titleOf(answer)[0] !== title;
    });
    expect(missed).toEqual([]);
  });
});
