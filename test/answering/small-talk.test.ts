/**
 * Small talk (answering/small-talk.ts): a message that is only a greeting, thanks, a goodbye, an
 * "ok", an announced question or a question about the bot gets a short reply in its language;
 * anything with a question about the records in it is not small talk.
 */
import { describe, expect, it } from 'vitest';
import { contextualQuery } from '../../src/knowledge/answering/follow-up.js';
import { isSmallTalk, smallTalk } from '../../src/knowledge/answering/small-talk.js';
import { SMALL_TALK, SMALL_TALK_KINDS } from '../../src/knowledge/language/small-talk-phrases.js';

const talk = (message: string, language?: string, conversation?: { role: 'user' | 'assistant'; content: string }[]) =>
  smallTalk(message, { botName: 'Ashgrove Helper', language, conversation });

describe('small talk', () => {
  it.each([
    ['hi', 'greeting', 'en'],
    ['Hello there!', 'greeting', 'en'],
    ['Good morning :)', 'greeting', 'en'],
    ['thanks', 'thanks', 'en'],
    ['Thank you so much, that helps!', 'thanks', 'en'],
    ['thx for the quick reply', 'thanks', 'en'],
    ['Thanks Ashgrove Helper!', 'thanks', 'en'],
    ['ok', 'ack', 'en'],
    ['Perfect, got it.', 'ack', 'en'],
    ['bye', 'goodbye', 'en'],
    ['thanks, bye', 'goodbye', 'en'],
    ["No thanks, that's all", 'goodbye', 'en'],
    ['I have a question', 'announce', 'en'],
    ['Hi, can you help me?', 'announce', 'en'],
    ['help', 'announce', 'en'],
    ['are you a bot?', 'identity', 'en'],
    ['Hi! Am I talking to a real person?', 'identity', 'en'],
    ['Hallo zusammen', 'greeting', 'de'],
    ['Vielen Dank für die schnelle Antwort!', 'thanks', 'de'],
    ['Tschüss!', 'goodbye', 'de'],
    ['Hallo, ich habe eine Frage', 'announce', 'de'],
    ['Bist du ein Bot?', 'identity', 'de'],
    ['Bonjour', 'greeting', 'fr'],
    ['merci beaucoup', 'thanks', 'fr'],
    ['Qui êtes-vous ?', 'identity', 'fr'],
    ["D'accord, bonne journée !", 'goodbye', 'fr'],
    ['muchas gracias', 'thanks', 'es'],
    ['grazie mille', 'thanks', 'it'],
    ['dank je wel', 'thanks', 'nl'],
    ['obrigada', 'thanks', 'pt'],
    ['👋', 'greeting', 'en'],
    ['👍', 'ack', 'en'],
  ])('%j is %s in %s', (message, kind, language) => {
    const reply = talk(message);
    expect(reply, message).toBeDefined();
    expect(reply?.kind).toBe(kind);
    expect(reply?.language).toBe(language);
    expect(reply?.reply).toBe(SMALL_TALK[language]?.replies[kind as (typeof SMALL_TALK_KINDS)[number]].replace('{bot}', 'Ashgrove Helper'));
  });

  it.each([
    'Hi! Do you ship to Canada?',
    'hi, I have a question about my order',
    'Thanks, and how much is delivery?',
    'Is it ok to put the kettle in the dishwasher?',
    'hello kitty mug',
    'help with returns',
    'Can I return it?',
    'Vielen Dank, liefert ihr auch nach Österreich?',
    'Bonjour, vous livrez en Suisse ?',
    '???',
    '',
    `${'thanks '.repeat(20)}`,
  ])('%j is not small talk', (message) => {
    expect(talk(message)).toBeUndefined();
  });

  it('says who the bot is by its name', () => {
    expect(talk('who are you?')?.reply).toMatch(/^I'm Ashgrove Helper, an automated assistant/);
  });

  it('answers a message every language reads alike in the conversation’s language, else the knowledge base’s', () => {
    expect(talk('ok')?.language).toBe('en');
    expect(talk('ok', 'de')?.language).toBe('de');
    expect(talk('ok', 'en', [{ role: 'user', content: 'Liefert ihr auch nach Österreich?' }])?.language).toBe('de');
    expect(talk('super', 'fr')?.reply).toBe(SMALL_TALK.fr?.replies.ack);
    // A word of one language only is answered in that language, whatever the knowledge base's.
    expect(talk('gracias', 'de')?.language).toBe('es');
    expect(talk('merci', 'de')?.language).toBe('fr');
  });

  it('every phrase of every language is read as its own kind', () => {
    for (const [code, lang] of Object.entries(SMALL_TALK)) {
      for (const kind of SMALL_TALK_KINDS) {
        for (const phrase of lang.phrases[kind]) {
          const reply = smallTalk(phrase, { botName: 'Bot', language: code });
          expect(reply, `${code} ${kind} ${JSON.stringify(phrase)}`).toBeDefined();
          // A phrase also listed under a more telling kind (in any language) may read as that one.
          expect(SMALL_TALK_KINDS.indexOf(reply?.kind ?? 'ack'), `${code} ${JSON.stringify(phrase)}`).toBeLessThanOrEqual(SMALL_TALK_KINDS.indexOf(kind));
        }
      }
    }
  });

  it('small talk in a conversation is no question for a follow-up to lean on', () => {
    const conversation = [
      { role: 'user' as const, content: 'Do you ship to Canada?' },
      { role: 'assistant' as const, content: 'Yes, we ship to Canada.' },
      { role: 'user' as const, content: 'Thanks!' },
      { role: 'assistant' as const, content: "You're welcome! Is there anything else I can help with?" },
    ];
    expect(isSmallTalk('Thanks!')).toBe(true);
    expect(contextualQuery('And how long does it take?', conversation)).toBe('Do you ship to Canada? And how long does it take?');
    expect(contextualQuery('And how long does it take?', [{ role: 'user', content: 'hi' }])).toBe('And how long does it take?');
  });
});
