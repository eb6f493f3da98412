import { describe, expect, it } from 'vitest';
import { STOP_WORDS_BY_LANGUAGE } from '../../src/knowledge/language/stopwords.js';
import { answerTypesIn, answerTypeTerm, askedAnswerTypes, indexedAnswerTermsIn } from '../../src/knowledge/language/answer-types.js';

describe('kinds of answer', () => {
  it.each([
    ['How long do I have to return something?', 'en', ['duration']],
    ['how soon will it arrive', 'en', ['duration']],
    ['How much is shipping to Canada?', 'en', ['amount']],
    ['Wie lange dauert der Versand?', 'de', ['duration']],
    ['wieviel kostet das Porto', 'de', ['amount']],
    ["J'ai combien de temps pour renvoyer un article ?", 'fr', ['duration']],
    ['Combien coûte la livraison en Suisse ?', 'fr', ['amount']],
    ['Do you ship to Mexico?', 'en', []],
    ['Is the kettle long enough?', 'en', []],
    // "How long is …" asks for a length or a span of time; "how long does …" only for time.
    ['How long are the carbon poles?', 'en', ['duration', 'length']],
    ['How long is the warranty?', 'en', ['duration', 'length']],
    ['How long does delivery take?', 'en', ['duration']],
    // When something the visitor waits for comes: a duration ("within 5 working days").
    ['If I buy something on a Sunday evening, when does it actually leave you?', 'en', ['duration']],
    ['when will I get my money back?', 'en', ['duration']],
    ['When can I reach an actual person for help?', 'en', ['contact']],
    ['ok when will it be back?', 'en', []],
    ['Wann bekomme ich die 200 Euro Kaution wieder?', 'de', ['duration']],
    ['wann ist das Zeug ungefähr bei mir?', 'de', ['duration']],
    ['Wann ist euer Büro besetzt?', 'de', []],
    ["si je commande aujourd'hui ça arrive quand chez moi ?", 'fr', ['duration']],
    ['Quand est-ce que je serai remboursé ?', 'fr', ['duration']],
    // Whether something costs at all ("Does that cost anything?"), which "… are free" answers.
    ['does that cost anything?', 'en', ['amount']],
    ['Is it extra?', 'en', ['amount']],
    ['Is there a charge for that?', 'en', ['amount']],
    ['Is it free to park?', 'en', []],
    ['kostet das extra?', 'de', ['amount']],
    ['Ist das kostenlos?', 'de', ['amount']],
    ['Muss ich dafür was zahlen?', 'de', ['amount']],
    ["C'est payant ?", 'fr', ['amount']],
    ['Ça coûte quelque chose ?', 'fr', ['amount']],
    ['Y a-t-il des frais ?', 'fr', ['amount']],
    // A time of day, in each language; not a time zone.
    ['What time can we check in?', 'en', ['time']],
    ['Which time zone are your opening hours in?', 'en', ['hours']],
    ['a quel heure on peut arriver', 'fr', ['time']],
    ["Jusqu'à quelle heure on peut mettre de la musique ?", 'fr', ['time']],
    ['Ab wie viel Uhr können wir in die Wohnung?', 'de', ['time']],
    ['Um welche Uhrzeit ist der Check-out?', 'de', ['time']],
    // …nor a thing's reach: "how long do the poles go up to?", "how long does the cable reach?".
    ['how long do the carbon poles go up to?', 'en', ['duration', 'length']],
    ['How long does the hose extend?', 'en', ['duration', 'length']],
    ['How long does it take to get to Leeds?', 'en', ['duration']],
    ['How long does the battery go on one charge?', 'en', ['duration']],
    ['Wie lang ist der Gartenschlauch?', 'de', ['duration', 'length']],
    ['Wie lange ist die Garantie?', 'de', ['duration']],
    ['How long do I have to return something?', 'nl', []],
    // What a thing holds is a quantity, not a price.
    ['How much coffee do the little cups hold?', 'en', ['quantity']],
    ['how much does the large milk jug hold', 'en', ['quantity']],
    ['How much is the large milk jug?', 'en', ['amount']],
    ['How many filters are in one box?', 'en', ['quantity']],
    ['How much does the tamper cost?', 'en', ['amount']],
    ['What does the Arden tamper cost?', 'en', ['amount']],
    ["What's the price of the knock box?", 'en', ['amount']],
    ['How expensive is the Lintel One?', 'en', ['amount']],
    ['Was kostet die Heckenschere?', 'de', ['amount']],
    ['Wie teuer ist der Spindelmäher?', 'de', ['amount']],
    ['Welchen Preis hat die Grabegabel?', 'de', ['amount']],
    // The level of a cost or a charge: "wie hoch" with one named.
    ['Wie hoch sind die Versandkosten innerhalb Deutschlands?', 'de', ['amount']],
    ['Wie hoch ist die Kaution?', 'de', ['amount']],
    ['Wie hoch ist der Zaun?', 'de', []],
    ['Quel est le prix du coffret découverte ?', 'fr', ['amount']],
    // What one pays is an amount: "What do I pay if I use the bike for half an hour?".
    ['What do I pay if I use the bike for half an hour?', 'en', ['amount']],
    ['what would we have to pay for two nights', 'en', ['amount']],
    ['What do we pay in total for the week?', 'en', ['amount']],
    ['Was zahle ich für einen Monat Deutsch?', 'de', ['amount']],
    ['Was muss ich für die Endreinigung bezahlen?', 'de', ['amount']],
    ["Qu'est-ce qu'on paie pour une nuit ?", 'fr', ['amount']],
    ['Que dois-je payer à la réservation ?', 'fr', ['amount']],
    ['Je paierai combien par heure si j’en veux d’autres ?', 'fr', ['amount']],
    ['combien on paie pour deux nuits', 'fr', ['amount']],
    // Whether or how one pays is not how much.
    ['Do I pay when I book?', 'en', []],
    ['What do I pay with?', 'en', []],
    ['Was muss ich tun, um per Rechnung zu bezahlen?', 'de', []],
    // Ask whether, not how much.
    ['Does the price include VAT?', 'en', []],
    ['Ist die Endreinigung im Preis enthalten?', 'de', []],
    ['Le prix comprend-il la livraison ?', 'fr', []],
    ['how much extra is express delivery', 'en', ['amount']],
    ['Wie viele Filter sind in einer Packung?', 'de', ['quantity']],
    ["Combien d'articles puis-je commander ?", 'fr', ['quantity']],
    ['Where is my order?', 'en', ['tracking']],
    ["where's my parcel", 'en', ['tracking']],
    ['Wo bleibt mein Paket?', 'de', ['tracking']],
    ['Où est ma commande ?', 'fr', ['tracking']],
    // With the definite article, only as the whole clause: "where is the order form" is no parcel.
    ['Et ensuite comment je vois où en est le colis ?', 'fr', ['tracking']],
    ['ok so where is the parcel?', 'en', ['tracking']],
    ['Wo bleibt das Paket?', 'de', ['tracking']],
    ['Where is the order form?', 'en', []],
    ['Where is the reset link?', 'en', []],
    ['What colour is the electric kettle?', 'en', ['colour']],
    ['Does the E48 grinder come in red?', 'en', ['colour']],
    ['Is the dripper available in other colours?', 'en', ['colour']],
    ['Do you have the kettle in black?', 'en', ['colour']],
    ['Welche Farben gibt es?', 'de', ['colour']],
    ['Gibt es die Lampe auch in Schwarz?', 'de', ['colour']],
    ['De quelle couleur est la théière ?', 'fr', ['colour']],
    ['Elle existe en rouge ?', 'fr', ['colour']],
    // A colour as a thing's name, or "white" of a drink: no colour asked for.
    ['Is the red kettle dishwasher safe?', 'en', []],
    ['Which cup is best for a flat white?', 'en', []],
    // A weight, not a price: "how much does it weigh".
    ['How heavy is the one-man tent?', 'en', ['weight']],
    ['How much does the big rucksack weigh?', 'en', ['weight']],
    ["What's the weight of the poles?", 'en', ['weight']],
    ['Wie schwer ist das Zelt?', 'de', ['weight']],
    ['Wie viel wiegt der Rucksack?', 'de', ['weight']],
    ['Quel est le poids de la tente ?', 'fr', ['weight']],
    ['Combien pèse le sac de couchage ?', 'fr', ['weight']],
    ['How much does the heavy-duty kettle cost?', 'en', ['amount']],
    // "wie leicht" is mostly "how easy"; "léger" and "lourd" alone are no weights either.
    ['Wie leicht ist die Anmeldung?', 'de', []],
    ['Il y a un léger retard sur ma commande ?', 'fr', []],
  ])('%s (%s) asks for %j', (question, language, types) => {
    expect(askedAnswerTypes(question, language)).toEqual(types);
  });

  it.each([
    ['Returns are accepted within 30 days of delivery.', ['duration', 'quantity']],
    ['Orders arrive in 3 to 7 business days.', ['duration', 'quantity']],
    ['Every kettle carries a two-year warranty.', ['duration']],
    ['Standard UK delivery costs £3.95 and takes 2–4 working days.', ['duration', 'amount', 'quantity']],
    ['Die Erstattung erfolgt innerhalb von 5 Werktagen.', ['duration', 'quantity']],
    ['Der Versand kostet 4,95 € und ist ab 59 € kostenlos.', ['amount', 'quantity']],
    ['Vous avez 14 jours pour retirer votre colis ; livraison en 48 h.', ['duration', 'quantity']],
    ['Les frais de port sont de 3,90 € en point relais.', ['amount', 'quantity']],
    ['We accept Visa, Mastercard and PayPal.', []],
    ['Our shop is open on Sundays and Mondays.', []],
    ['Capacity: 80 ml', ['quantity']],
    ['Weight: 1.35 kg', ['quantity', 'weight']],
    ['Specs › Weight: 620 g', ['quantity', 'weight']],
    ['Gewicht: 1,2 Kilo', ['quantity', 'weight']],
    ['weighs just 12 oz', ['quantity', 'weight']],
    // A mobile network and a length are no weight.
    ['Works without 4G signal.', ['quantity']],
    ['Packed size: 42 x 14 cm', ['quantity']],
    // A length only where the text names it one: "Burrs: 48 mm" is a size, no answer to "how long is the cable?".
    ['Length: 105–135 cm', ['length', 'quantity']],
    ['Packed length: 62 cm', ['length', 'quantity']],
    ['Schwertlänge: 50 cm', ['length', 'quantity']],
    ['The hose is 15 m long.', ['length', 'quantity']],
    ['Burrs: 48 mm flat, steel', ['quantity']],
    ['Für Rasenflächen bis 400 m², Länge des Kabels beliebig.', ['quantity']],
    ['Each box holds 100 filters.', ['quantity']],
    ['Shipping is free of charge.', ['amount']],
    ['Reservations are free.', ['amount']],
    ['You are free to cancel at any time.', []],
    ['Die Kurtaxe ist nicht umsonst.', ['amount']],
    ['Matte black with a wooden-effect handle.', ['colour']],
    ['Finish: brushed', ['colour']],
    ['Farbe: Anthrazit', ['colour']],
    ['Disponible en vert ou en noir.', ['colour']],
    ['Pay by card or by bank transfer.', []],
    // A time of day; an hour with "h" only up to 23 ("48 h" above is a duration).
    ["Pour les emplacements, l'arrivée est possible à partir de 12 h.", ['duration', 'quantity', 'time']],
    ['Check-in from 3pm, check-out by 10:30.', ['quantity', 'time', 'hours']],
    ['Anreise ab 15 Uhr, Abreise bis 10 Uhr.', ['quantity', 'time', 'hours']],
    ['Le bar ferme à 23h30.', ['quantity', 'time']],
    ['Orders placed before noon ship the same day.', ['time']],
    ['Backups are kept for 35 days.', ['duration', 'quantity']],
  ])('finds in %s: %j', (text, types) => {
    expect(answerTypesIn(text)).toEqual(types);
  });

  it.each([
    ["What's your phone number?", 'en', ['phone']],
    ['Is there a number I can call?', 'en', ['phone']],
    ['what is the customer service number', 'en', ['phone']],
    ['Do you have a hotline?', 'en', ['phone']],
    ["What's your email address?", 'en', ['email']],
    ['what is your e-mail', 'en', ['email']],
    ['Wie ist eure Telefonnummer?', 'de', ['phone']],
    ['Wie lautet eure E-Mail-Adresse?', 'de', ['email']],
    ['Quel est votre numéro de téléphone ?', 'fr', ['phone']],
    ['Quelle est votre adresse e-mail ?', 'fr', ['email']],
    // A number of one's own, a time to call, or a phone as a thing: no contact detail asked for.
    ["What's my order number?", 'en', []],
    ['Where do I find the tracking number?', 'en', []],
    ['When can I phone you?', 'en', ['hours']],
    ['Does the app run on Android phones?', 'en', []],
    ['Ich habe keine E-Mail bekommen', 'de', []],
    ['Où trouver mon numéro de commande ?', 'fr', []],
    ['When are you open?', 'en', ['hours']],
    ['What are your opening hours?', 'en', ['hours']],
    ['is live chat available at weekends', 'en', ['hours']],
    ['What time does customer service close?', 'en', ['time', 'hours']],
    ['Was sind eure Öffnungszeiten?', 'de', ['hours']],
    ['Wann habt ihr geöffnet?', 'de', ['hours']],
    ['Bis wann kann ich anrufen?', 'de', ['hours']],
    ['Quels sont vos horaires ?', 'fr', ['hours']],
    ['Vous êtes ouverts le dimanche ?', 'fr', ['hours']],
    ['À quelle heure ouvrez-vous le samedi ?', 'fr', ['time', 'hours']],
    // Any way to reach a person.
    ['How can I contact you?', 'en', ['contact']],
    ['can I talk to a human', 'en', ['contact']],
    ['I want to speak to a real person', 'en', ['contact']],
    ['how do I get in touch', 'en', ['contact']],
    ['When can I reach an actual person for help?', 'en', ['contact']],
    ['Wie kann ich euch erreichen?', 'de', ['contact']],
    ['Kann ich mit einem Menschen sprechen?', 'de', ['contact']],
    ['Comment vous contacter ?', 'fr', ['contact']],
    ["Je voudrais parler à quelqu'un", 'fr', ['contact']],
    // Talking about contact, or to a product, is no request for one.
    ['Does the kettle talk to my phone app?', 'en', []],
    ['Who can contact my employees through the app?', 'en', []],
    ["What's your address?", 'en', ['address']],
    ['Where are you based?', 'en', ['address']],
    ['Where exactly are you?', 'en', ['address']],
    ['Whereabouts are you located?', 'en', ['address']],
    ['Vous êtes où exactement ?', 'fr', ['address']],
    // Which address something goes to, in each language; not an email address.
    ['À quelle adresse renvoyer le colis ?', 'fr', ['address']],
    ['Quelle adresse e-mail dois-je utiliser ?', 'fr', ['email']],
    ['An welche Adresse schicke ich die Rücksendung?', 'de', ['address']],
    ['What address should I send it to?', 'en', ['address']],
    ['Vous êtes situés où ?', 'fr', ['address']],
    ["Where's the clinic?", 'en', ['address']],
    ['Where are you and is there parking?', 'en', ['address']],
    ['where r u guys?', 'en', ['address']],
    // Where someone is with something, not where the business is.
    ['Where are you shipping my order from?', 'en', []],
    ['Wo ist die Praxis?', 'de', ['address']],
    ['Wie lautet eure Adresse?', 'de', ['address']],
    ['Wo seid ihr?', 'de', ['address']],
    ['Quelle est votre adresse ?', 'fr', ['address']],
    ['Où êtes-vous situés ?', 'fr', ['address']],
    ["C'est où l'auto-école ?", 'fr', ['address']],
    ['Où se trouve le cabinet ?', 'fr', ['address']],
    // The address a return goes to is the business's.
    ["Quelle est l'adresse pour les retours ?", 'fr', ['address']],
    ["C'est quoi l'adresse de retour ?", 'fr', ['address']],
    ["Quelle est l'adresse ?", 'fr', ['address']],
    ['Was ist die Adresse für Rücksendungen?', 'de', ['address']],
    ['Wie lautet die Rücksendeadresse?', 'de', ['address']],
    // Where something is in the app or the parcel: no postal address.
    ["C'est où le bouton pour annuler ?", 'fr', []],
    // An email address, or the customer's own delivery address: no postal address of the business.
    ['Can I change my delivery address?', 'en', []],
    ['Wie ändere ich meine Lieferadresse?', 'de', []],
    ["Puis-je changer l'adresse de livraison ?", 'fr', []],
    ["L'adresse de facturation peut-elle être différente ?", 'fr', []],
    ['Quelle est votre adresse e-mail ?', 'fr', ['email']],
    // Opening an account or a parcel, an opened tea: no opening hours asked for.
    ['How do I open an account?', 'en', []],
    ['Is the box open?', 'en', []],
    ['Puis-je retourner un thé ouvert ?', 'fr', []],
    // A temperature, and not the word alone ("Store it at room temperature?").
    ['What temperature should the water be for green tea?', 'en', ['temperature']],
    ['How hot does the kettle get?', 'en', ['temperature']],
    ['Can I store it at room temperature?', 'en', []],
    ['Welche Temperatur hat das Wasser?', 'de', ['temperature']],
    ['Wie warm hält der Schlafsack?', 'de', ['temperature']],
    ['Quelle température pour le thé vert ?', 'fr', ['temperature']],
    // A speed, and not a quick delivery or refund ("how fast", "wie schnell" alone ask for a duration).
    ["what's the top speed of the e-bikes", 'en', ['speed']],
    ['How fast does the scooter go uphill?', 'en', ['duration', 'speed']],
    ['How fast will my order arrive?', 'en', ['duration']],
    ['Welche Höchstgeschwindigkeit schafft das E-Bike?', 'de', ['speed']],
    ['Wie schnell ist das Geld zurück?', 'de', ['duration']],
    ['Quelle est la vitesse maximale du vélo ?', 'fr', ['speed']],
  ])('%s (%s) asks for %j', (question, language, types) => {
    expect(askedAnswerTypes(question, language)).toEqual(types);
  });

  it.each([
    ['Infusez à 90-95 °C pendant 3 à 5 minutes.', ['duration', 'quantity', 'temperature']],
    ['Comfort: -4 °C', ['quantity', 'temperature']],
    ['Assisted up to 25 km/h.', ['quantity', 'speed']],
    ['Luftgeschwindigkeit: 210 km/h', ['quantity', 'speed']],
    ['Fibre internet at 100 Mbit/s.', ['quantity', 'speed']],
    ['The battery lasts about 60 km.', ['quantity']],
    ['You can also call us on 0114 496 0321 on weekdays.', ['quantity', 'phone']],
    ['Telefonisch unter +49 341 2569480 erreichbar.', ['quantity', 'phone']],
    ['Appelez-nous au 04 78 29 61 05.', ['quantity', 'phone']],
    ['Call (555) 123-4567 or 800-555-0199.', ['quantity', 'phone']],
    ['Email hello@ashgrovekitchen.co.uk with your order number.', ['email']],
    ['E-Mails an service@speichenwerk.de beantworten wir schnell.', ['email']],
    // Dates, prices, ranges, account and article numbers are not phone numbers.
    ['Sale ends on 28.11.2026 and starts 2026-11-20.', ['quantity']],
    ['The Lintel Duo costs £1,390 and ships in 10–14 working days.', ['duration', 'amount', 'quantity']],
    ['IBAN DE89 3704 0044 0532 0130 00', ['quantity']],
    ['EAN 4006381333931, order 12345678', ['quantity']],
    ['Follow us @ashgrove on Instagram.', []],
    ['Live chat Monday to Friday 9am–5:30pm.', ['quantity', 'time', 'hours']],
    ['Support: 8:00 to 20:00 CET.', ['quantity', 'time', 'hours']],
    ['Montags bis freitags von 9 bis 17 Uhr erreichbar.', ['quantity', 'time', 'hours']],
    ['Du mardi au samedi, de 10 h à 18 h.', ['duration', 'quantity', 'time', 'hours']],
    ['Abholung in unserem Lager (Gießerstraße 18, 04229 Leipzig).', ['quantity', 'address']],
    ['Envoyez le colis à : Service retours, 14 impasse des Tisserands, 69004 Lyon.', ['quantity', 'address']],
    ['Our showroom is at 221 Baker Street, London NW1 6XE.', ['quantity', 'address']],
    // A price, a count, a year before a capital: no address.
    ['Ab 10000 Euro Bestellwert liefern wir frei Haus.', ['amount', 'quantity']],
    ['In 2024 We moved.', ['quantity']],
    ['Since 2016 Lyon has been our home.', ['quantity']],
    ['Unser Laden: 1010 Wien, Kärntner Ring 5.', ['quantity', 'address']],
    // A duration in hours and a ratio are no time of day.
    ['Livraison en 48 h.', ['duration', 'quantity']],
    ['The screen is 16:9.', ['quantity']],
    ['@shop: write to orders@shop.example', ['email']],
  ])('finds in %s: %j', (text, types) => {
    expect(answerTypesIn(text)).toEqual(types);
  });

  it('does not read the visitor\'s own email address or phone number as asking for the business\'s', () => {
    expect(askedAnswerTypes('Can I change my email address?', 'en')).toEqual([]);
    expect(askedAnswerTypes('My phone number has changed, how do I update it?', 'en')).toEqual([]);
    expect(askedAnswerTypes('What is your email address?', 'en')).toEqual(['email']);
    expect(askedAnswerTypes("What's the phone number?", 'en')).toEqual(['phone']);
    expect(askedAnswerTypes('Wie ändere ich meine E-Mail-Adresse?', 'de')).toEqual([]);
    expect(askedAnswerTypes('Wie ist eure E-Mail-Adresse?', 'de')).toEqual(['email']);
    expect(askedAnswerTypes('Comment changer mon adresse e-mail ?', 'fr')).toEqual([]);
    expect(askedAnswerTypes('Quelle est votre adresse e-mail ?', 'fr')).toEqual(['email']);
  });

  it('reads spoken French prices ("c\'est combien", "ça coûte combien") as asking for an amount, and "combien" as a question word', () => {
    for (const q of ["C'est combien la livraison ?", 'ça coûte combien pour la Suisse', 'ça fait combien en tout ?', "combien c'est ?"]) expect(askedAnswerTypes(q, 'fr'), q).toContain('amount');
    expect(askedAnswerTypes('Combien de temps pour la livraison ?', 'fr')).not.toContain('amount');
    expect(STOP_WORDS_BY_LANGUAGE.fr?.has('combien')).toBe(true);
  });

  it('reads spoken German opening times ending in "auf" or "zu" as asking for hours, not "auf Lager"', () => {
    for (const q of ['Habt ihr sonntags auf?', 'Wann macht ihr morgens auf?', 'Bis wann macht ihr zu?', 'Hat der Laden heute auf']) expect(askedAnswerTypes(q, 'de'), q).toContain('hours');
    for (const q of ['Habt ihr auch Hanteln auf Lager?', 'Wann kommt meine Bestellung auf?', 'Kann ich auf Rechnung zahlen?']) expect(askedAnswerTypes(q, 'de'), q).not.toContain('hours');
  });

  it('reads an age limit asked for and given, in English, German and French, and not a thing\'s age', () => {
    for (const [q, language] of [
      ['How old do you have to be to ride?', 'en'],
      ['what age do i need to be', 'en'],
      ['Is there a minimum age?', 'en'],
      ['Is my son old enough to sign up?', 'en'],
      ['Wie alt muss ich sein?', 'de'],
      ['Gibt es ein Mindestalter?', 'de'],
      ['Quel âge faut-il avoir ?', 'fr'],
      ['Y a-t-il un âge minimum ?', 'fr'],
    ] as const) expect(askedAnswerTypes(q, language), q).toContain('age');
    for (const [q, language] of [
      ['How old is the kettle?', 'en'],
      ['Can I return an old model?', 'en'],
      ['Wie lange dauert der Versand?', 'de'],
    ] as const) expect(askedAnswerTypes(q, language), q).not.toContain('age');
    for (const text of [
      'Riders must be at least 16 years old.',
      'You must be aged 18 or over.',
      'Accounts are for over-18s only.',
      'Fahren ab 16 Jahren.',
      'Du musst 18 Jahre alt sein.',
      'Nur für Volljährige.',
      'Il faut être âgé de 18 ans.',
      'Vous devez avoir au moins 16 ans.',
      'Réservé aux personnes majeures.',
    ]) expect(answerTypesIn(text), text).toContain('age');
    for (const text of ['A two-year warranty covers every kettle.', 'Returns within 30 days.', 'Livraison sous 3 jours, garantie 2 ans.', 'Our shop opened 12 years ago.']) {
      expect(answerTypesIn(text), text).not.toContain('age');
    }
  });

  it('reads a share of a price or off it as an amount, and no other percentage', () => {
    for (const text of ["pour 3,5 % du montant du séjour (hors taxe de séjour)", 'a fee of 5% of the order total', 'Bei Vorkasse bekommst du 2 % Skonto auf den Warenwert.', 'Ab 10 Stück gewähren wir 10 % Rabatt.', 'Students get 15% off.'])
      expect(answerTypesIn(text), text).toContain('amount');
    for (const text of ['Keep the humidity at 30 % or less.', 'VAT of 20% applies.', 'We reply to 95% of messages within a day.'])
      expect(answerTypesIn(text), text).not.toContain('amount');
  });

  it('gives the index a term for each way of reaching the business that a text offers, and for an age limit, as answerTypesIn finds them', () => {
    const texts = [
      'Riders must be at least 16 years old. Call us on 0114 496 0321.',
      'Call us on 0114 496 0321 or email hello@ashgrovekitchen.co.uk, weekdays 9am to 5pm, or visit 221 Baker Street.',
      'Call us on 0114 496 0321 or email hello@ashgrovekitchen.co.uk.',
      'Email hello@ashgrovekitchen.co.uk.',
      'Call us on 0114 496 0321.',
      'Delivery takes 3 to 5 days and costs £3.95.',
      'Sale ends on 28.11.2026.',
      '',
    ];
    for (const text of texts) {
      const kinds = answerTypesIn(text).filter((t) => t === 'phone' || t === 'email' || t === 'hours' || t === 'address' || t === 'age');
      expect(indexedAnswerTermsIn(text), text).toEqual(kinds.map(answerTypeTerm));
    }
  });
});
