/**
 * Generated inputs for the benchmark, deterministic and never repeated:
 *
 * - `uniqueQuestions()`: visitor questions about the shop FAQ, no text asked again within ~83,000,
 *   so an "uncached" query really does all its work (the server memoises the analysis of recent
 *   question texts; cycling a few dozen questions measured those memo hits, not a question).
 * - `syntheticFaq(n)`: `n` short FAQ records (about 380 bytes each, like the shop FAQ), a
 *   vocabulary that grows with the knowledge base (every product has its own model code), for
 *   the scale scenarios; `scaleQuestions()` asks about them, a text seldom twice.
 */
import type { FaqEntry } from './faq.js';
import { QUESTIONS } from './faq.js';
import { seededRandom } from '../src/tools/lorem-ipsum/seeded-random.js';

const OPENERS = [
  '', 'hi, ', 'hello, ', 'quick question: ', 'sorry to bother you, ', 'excuse me, ', 'good morning, ', 'hey there, ',
  'one more thing: ', 'please help: ', 'hi again, ', 'good evening, ', 'hello team, ', 'a question: ', 'hi support, ', 'dear shop, ',
];
const MIDDLES = [
  '', 'i was wondering: ', 'can you tell me: ', 'i would like to know: ', 'could you check: ', 'just asking: ', 'honestly, ',
  'for my order: ', 'as a new customer: ', 'before i buy: ', 'my partner asks: ', 'maybe a silly question: ',
];
const CLOSERS = [
  '', ' thanks', ' thank you!', ' please', ' cheers', ' thanks a lot', ' many thanks', ' kind regards', ' thanks in advance',
  ' asap please', ' if possible', ' thx', ' best wishes', ' have a nice day', ' thanks so much', ' appreciated',
];

/**
 * The i-th question of a mixed-radix walk over openers × middles × closers × the FAQ questions:
 * no text comes back within ~83,000 questions, far past what any memo holds (the question memo
 * keeps 256 per knowledge base), and then the walk starts again. Until session 25 a lap added
 * " (message N)": a running number the records also use ("30 days", "2 years"), so questions grew
 * heavier as a run went on (docs/indexing.md, "Session 25").
 */
export function uniqueQuestion(i: number): string {
  const q = QUESTIONS.length;
  const question = QUESTIONS[i % q] as string;
  let rest = Math.floor(i / q);
  const opener = OPENERS[rest % OPENERS.length] as string;
  rest = Math.floor(rest / OPENERS.length);
  const middle = MIDDLES[rest % MIDDLES.length] as string;
  rest = Math.floor(rest / MIDDLES.length);
  const closer = CLOSERS[rest % CLOSERS.length] as string;
  return `${opener}${middle}${question}${closer}`;
}

/** A source of questions no other caller of the same source ever gets again (shared by all the connections of a run). */
export function uniqueQuestions(start = 0): () => string {
  let next = start;
  return () => uniqueQuestion(next++);
}

// --- synthetic knowledge bases ---------------------------------------------------------------


const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const PRODUCTS = [
  'kettle', 'toaster', 'blender', 'lamp', 'desk', 'chair', 'wardrobe', 'mattress', 'pillow', 'blanket', 'backpack', 'jacket',
  'raincoat', 'boots', 'sneakers', 'headphones', 'speaker', 'charger', 'keyboard', 'monitor', 'router', 'camera', 'tripod',
  'bicycle', 'helmet', 'tent', 'sleeping bag', 'stove', 'pan', 'knife set', 'coffee grinder', 'vacuum cleaner', 'heater', 'fan',
  'humidifier', 'drill', 'saw', 'ladder', 'garden hose', 'lawn mower', 'bookshelf', 'sofa', 'rug', 'curtain', 'mirror', 'clock',
];
const ADJECTIVES = [
  'compact', 'foldable', 'wireless', 'waterproof', 'electric', 'wooden', 'steel', 'ceramic', 'cordless', 'portable', 'heavy-duty',
  'lightweight', 'ergonomic', 'adjustable', 'insulated', 'recycled', 'premium', 'classic', 'smart', 'quiet',
];
const TOPICS = [
  { q: 'How do I clean the', a: 'Wipe it with a damp cloth and mild soap, never put it in the dishwasher, and let it dry fully before the next use.' },
  { q: 'What is the warranty on the', a: 'It carries a warranty of {n} years from the date of delivery; keep your invoice, we need it for every claim.' },
  { q: 'Can I return the', a: 'Yes, within 30 days if it is unused and in its original box; opened hygiene items cannot be returned.' },
  { q: 'How heavy is the', a: 'It weighs {n}.{m} kg without packaging, and the parcel with the box is about one kilogram heavier.' },
  { q: 'Where is the', a: 'It is designed in Hamburg and assembled in Portugal by a partner we audit every year for working conditions.' },
  { q: 'Are spare parts available for the', a: 'Spare parts stay available for at least {n} years after the model leaves our range; order them from your account page.' },
  { q: 'How long does the battery of the', a: 'A full charge lasts about {n} hours of normal use and recharging takes two hours with the supplied cable.' },
  { q: 'Does the', a: 'It ships with a printed manual in six languages, and the manual is also on the product page as a PDF.' },
  { q: 'Which colours does the', a: 'It comes in black, white and sage green; other colours appear as limited editions a few times a year.' },
  { q: 'How do I assemble the', a: 'Assembly takes about {n}0 minutes with the included tools; a video on the product page shows every step.' },
];

function modelCode(i: number): string {
  // Letters and digits, one token per record: the vocabulary grows with the knowledge base.
  let code = '';
  let n = i + 17_576;
  while (n > 0) {
    code = String.fromCharCode(97 + (n % 26)) + code;
    n = Math.floor(n / 26);
  }
  return `${code}${(i * 7919) % 1000}`;
}

/** The i-th record of the synthetic catalogue FAQ (the same for the same i in every run). */
export function syntheticRecord(i: number): FaqEntry {
  const random = seededRandom(i + 1);
  const product = pick(random, PRODUCTS);
  const adjective = pick(random, ADJECTIVES);
  const topic = pick(random, TOPICS);
  const code = modelCode(i);
  const fill = (s: string) => s.replace('{n}', String(2 + Math.floor(random() * 8))).replace('{m}', String(Math.floor(random() * 10)));
  return {
    question: `${topic.q} ${adjective} ${product} ${code}?`,
    answer: `About the ${adjective} ${product} ${code}: ${fill(topic.a)} Prices include VAT. Questions about the ${product} ${code} that this does not answer go to support@shop.example; we reply within one working day.`,
  };
}

export function syntheticFaq(count: number, offset = 0): FaqEntry[] {
  return Array.from({ length: count }, (_, i) => syntheticRecord(offset + i));
}

/**
 * Questions about a synthetic knowledge base of `records` records: the topic and product of a
 * record picked by a seeded walk, sometimes with its model code, sometimes without (then many
 * records match and ranking does real work), in one of 3,072 wordings (openers × middles ×
 * closers), so a text comes back seldom, and within a memo's 256 questions hardly ever.
 */
export function scaleQuestions(records: number, seed = 1): () => string {
  const random = seededRandom(seed);
  let i = 0;
  return () => {
    const index = Math.floor(random() * records);
    const record = syntheticRecord(index);
    const words = record.question.replace(/\?$/, '').split(' ');
    const code = words.pop() as string;
    const withCode = i % 2 === 0;
    const opener = OPENERS[i % OPENERS.length] as string;
    const middle = MIDDLES[Math.floor(i / OPENERS.length) % MIDDLES.length] as string;
    const closer = CLOSERS[Math.floor(i / (OPENERS.length * MIDDLES.length)) % CLOSERS.length] as string;
    i++;
    // The same shape from the first question to the last: no running number (see `uniqueQuestion`).
    return `${opener}${middle}${words.join(' ')}${withCode ? ` ${code}` : ''}?${closer}`;
  };
}
