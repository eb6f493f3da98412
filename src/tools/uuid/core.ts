/**
 * UUIDs per RFC 9562. Version 7: 48-bit Unix milliseconds, then 12 bits used
 * as a counter within one millisecond (RFC 9562 §6.2, method 1, seeded at
 * random), then 62 random bits — so a batch is strictly ascending.
 */
import { bytesToHex } from '../shared/bytes.js';

export interface UuidInput {
  version?: 'v4' | 'v7';
  count?: number;
}

export interface UuidOutput {
  uuids: string[];
}

function format(bytes: Uint8Array): string {
  const hex = bytesToHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function v7Batch(count: number, now: number): string[] {
  const out: string[] = [];
  let ms = now;
  // Seeded in the lower half of the 12 bits, so a batch of 100 rarely spills into the next millisecond.
  let counter = (globalThis.crypto.getRandomValues(new Uint16Array(1))[0] ?? 0) & 0x7ff;
  for (let n = 0; n < count; n++) {
    if (n > 0) {
      counter++;
      if (counter > 0xfff) {
        ms++;
        counter = 0;
      }
    }
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
    // 48-bit big-endian timestamp (Number keeps 53 bits exactly; no bitwise ops above 32 bits).
    let t = ms;
    for (let i = 5; i >= 0; i--) {
      bytes[i] = t % 256;
      t = Math.floor(t / 256);
    }
    bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
    bytes[7] = counter & 0xff;
    bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
    out.push(format(bytes));
  }
  return out;
}

export function run(input: UuidInput): UuidOutput {
  return generate(input, Date.now());
}

/** `run` at a given time, for tests of v7 ordering. */
export function generate(input: UuidInput, now: number): UuidOutput {
  const count = input.count ?? 1;
  if ((input.version ?? 'v4') === 'v7') return { uuids: v7Batch(count, now) };
  return { uuids: Array.from({ length: count }, () => globalThis.crypto.randomUUID()) };
}
