/** Every common identifier case at once, with change-case (Unicode-aware word splitting). */
import { camelCase, capitalCase, constantCase, dotCase, kebabCase, pascalCase, pathCase, sentenceCase, snakeCase } from 'change-case';
import { ToolInputError } from '../types.js';

export interface CaseConvertInput {
  text: string;
}

export interface CaseConvertOutput {
  camel: string;
  pascal: string;
  snake: string;
  kebab: string;
  constant: string;
  title: string;
  sentence: string;
  dot: string;
  path: string;
  upper: string;
  lower: string;
}

/** locale false: plain toLowerCase, so results do not depend on the reader's language (Turkish dotted i). */
const options = { locale: false } as const;

export function run(input: CaseConvertInput): CaseConvertOutput {
  const text = input.text;
  if (text.trim() === '') throw new ToolInputError('Enter some text to convert.', { field: 'text' });
  return {
    camel: camelCase(text, options),
    pascal: pascalCase(text, options),
    snake: snakeCase(text, options),
    kebab: kebabCase(text, options),
    constant: constantCase(text, options),
    title: capitalCase(text, options),
    sentence: sentenceCase(text, options),
    dot: dotCase(text, options),
    path: pathCase(text, options),
    upper: text.toUpperCase(),
    lower: text.toLowerCase(),
  };
}
