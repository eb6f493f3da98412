/** Random passwords from chosen character sets, and a strength check for a given password. */
import { ToolInputError } from '../types.js';
import { randomIndexes } from './random.js';
import { type Strength, strengthOf } from './strength.js';

export interface PasswordGenInput {
  mode?: 'generate' | 'check';
  length?: number;
  count?: number;
  lowercase?: boolean;
  uppercase?: boolean;
  digits?: boolean;
  symbols?: boolean;
  excludeLookAlikes?: boolean;
  password?: string;
}

export interface GeneratedPasswords {
  result: string;
  passwords: string[];
  length: number;
  alphabetSize: number;
  /** log2(alphabet size) × length: the strength of a password picked at random like these. */
  entropyBits: number;
}

const sets = {
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digits: '0123456789',
  symbols: '!#$%&()*+,-./:;<=>?@[]^_{|}~',
};
const lookAlikes = /[Il1O0o|]/g;
/** Redraws of a whole password before giving up on "one of each set" (only reachable with tiny alphabets). */
const maxAttempts = 10_000;

function chosenSets(input: PasswordGenInput): string[] {
  const chosen = (Object.keys(sets) as (keyof typeof sets)[])
    .filter((name) => input[name] ?? true)
    .map((name) => (input.excludeLookAlikes ? sets[name].replace(lookAlikes, '') : sets[name]));
  if (chosen.length === 0) throw new ToolInputError('Choose at least one character set.', { field: 'lowercase' });
  return chosen;
}

/** One password with at least one character of each chosen set, drawn uniformly among those. */
function generateOne(alphabet: string, chosen: string[], length: number): string {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const password = randomIndexes(alphabet.length, length).map((i) => alphabet[i]).join('');
    if (chosen.every((set) => [...password].some((c) => set.includes(c)))) return password;
  }
  throw new ToolInputError('Could not include every character set; use a longer length.', { field: 'length' });
}

function generate(input: PasswordGenInput): GeneratedPasswords {
  const length = input.length ?? 20;
  const count = input.count ?? 1;
  const chosen = chosenSets(input);
  if (length < chosen.length) throw new ToolInputError(`A length of ${length} cannot hold one character of each of the ${chosen.length} sets.`, { field: 'length' });
  const alphabet = chosen.join('');
  const passwords = Array.from({ length: count }, () => generateOne(alphabet, chosen, length));
  return {
    result: passwords.join('\n'),
    passwords,
    length,
    alphabetSize: alphabet.length,
    entropyBits: Math.round(Math.log2(alphabet.length) * length * 10) / 10,
  };
}

export function run(input: PasswordGenInput): GeneratedPasswords | Strength {
  if ((input.mode ?? 'generate') === 'generate') return generate(input);
  if (!input.password) throw new ToolInputError('Enter the password to check.', { field: 'password' });
  return strengthOf(input.password);
}
