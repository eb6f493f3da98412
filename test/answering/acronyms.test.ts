import { describe, expect, it } from 'vitest';
import { spelledOut } from '../../src/knowledge/answering/acronyms.js';

describe('acronyms the records spell out', () => {
  it('finds the words whose initials spell an acronym, a number word for its digit, past function words', () => {
    expect(spelledOut('2fa', 'Accounts › Two-factor authentication\nYou can protect your account…', 'en')).toBe('two factor authentication');
    expect(spelledOut('dpa', 'Our data processing agreement (DPA) can be signed online.', 'en')).toBe('data processing agreement');
    expect(spelledOut('tos', 'Please read our terms of service first.', 'en')).toBe('terms of service');
    expect(spelledOut('agb', 'Es gelten unsere Allgemeinen Geschäfts-Bedingungen.', 'de')).toBe('allgemeinen geschaefts bedingungen');
  });

  it('finds none where no words in a row spell it', () => {
    expect(spelledOut('mfa', 'Two-factor authentication keeps your account safe.', 'en')).toBeUndefined();
    expect(spelledOut('dpa', 'Data is processed under an agreement.', 'en')).toBeUndefined();
    // A function word stands for no initial of its own at the start.
    expect(spelledOut('tos', 'the other side', 'en')).toBeUndefined();
  });
});
