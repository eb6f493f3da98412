/** Page cursors are opaque to clients: base64url of the row's sequence number. */
export function encodeCursor(seq: number | bigint | string): string {
  return Buffer.from(String(seq), 'utf8').toString('base64url');
}

/** The sequence number a cursor points after, or undefined for a cursor that is not ours. */
export function decodeCursor(cursor: string | undefined): number | undefined {
  if (!cursor) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}
