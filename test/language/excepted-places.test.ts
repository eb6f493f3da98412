import { describe, expect, it } from 'vitest';
import { withoutExceptedPlaces } from '../../src/knowledge/language/excepted-places.js';

describe('places named only as exceptions', () => {
  it('blanks the places listed right after "außer", "except", "sauf", keeping every offset', () => {
    const german = 'Außer nach Deutschland, Österreich und in die Schweiz liefern wir in alle EU-Länder sowie nach Norwegen.';
    const read = withoutExceptedPlaces(german, 'de');
    expect(read).toHaveLength(german.length);
    expect(read).not.toMatch(/Deutschland|Österreich|Schweiz/);
    // The places the sentence does deliver to stay.
    expect(read).toContain('nach Norwegen');
    const english = withoutExceptedPlaces('We ship to every EU country except Ireland and the United Kingdom, from our warehouse.', 'en');
    expect(english).not.toMatch(/Ireland|United Kingdom/);
    expect(english).toContain('from our warehouse');
    expect(withoutExceptedPlaces('Livraison partout en Europe sauf en Suisse et au Danemark.', 'fr')).not.toMatch(/Suisse|Danemark/);
  });

  it('leaves what is not a list of places as written ("except invoices", "außer Sperrgut") and texts without a cue', () => {
    for (const [text, language] of [
      ['Your data is deleted within 30 days, except invoices, which we keep for 10 years.', 'en'],
      ['Außer Sperrgut liefern wir alles nach Österreich.', 'de'],
      ['We ship to Ireland and the United Kingdom.', 'en'],
      ['Außer nach Deutschland liefern wir nach Österreich.', 'nl'],
    ] as const) expect(withoutExceptedPlaces(text, language)).toBe(text);
  });
});
