/** Data format conversion: parse into plain data, then write it in the other format. */
import { type DataFormat, parseData } from './parse.js';
import { writeData } from './write.js';

export interface JsonConvertInput {
  text: string;
  from: DataFormat;
  to: DataFormat;
  csvTypes?: boolean;
}

export function run(input: JsonConvertInput): { result: string } {
  const data = parseData(input.text, input.from, input.csvTypes ?? true);
  return { result: writeData(data, input.to) };
}
