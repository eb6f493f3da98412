/**
 * One buffer for a small index's numeric columns (issue 14, memory per idle knowledge base;
 * docs/indexing.md, "Session 12"). A typed array of its own costs, besides its contents, an
 * `ArrayBuffer` object on the heap (~88 bytes), a backing store allocated outside it and that
 * store's bookkeeping (~150–250 bytes of RSS together); an idle 25-record index had 9 such
 * buffers for ~11 KB of numbers. Packed, every column is a view of one buffer: the contents are
 * copied once, and the columns are read and written as before (a column that must grow is
 * replaced by a larger array of its own, as it was; the buffer stays while any view of it does).
 */

export type Column = Uint8Array | Uint16Array | Int16Array | Int32Array;

/** Columns together larger than this keep their own buffers: beside their contents the per-buffer costs are nothing, and a copy would hold both for a moment. */
export const PACK_AT_MOST_BYTES = 64 * 1024;

/** For tests: `enabled` false leaves every column in its own buffer (the plain layout the packed one is compared with). */
export const packColumnsSwitch = { enabled: true };

/** A view of the same kind as `like`, of `length` elements of `buffer` from `byteOffset`. */
function viewLike<T extends Column>(like: T, buffer: ArrayBuffer, byteOffset: number, length: number): T {
  if (like instanceof Uint8Array) return new Uint8Array(buffer, byteOffset, length) as T;
  if (like instanceof Uint16Array) return new Uint16Array(buffer, byteOffset, length) as T;
  if (like instanceof Int16Array) return new Int16Array(buffer, byteOffset, length) as T;
  return new Int32Array(buffer, byteOffset, length) as T;
}

/**
 * Collects the columns of an index and its parts (`add`: the column and how to put its view back),
 * then copies them into one buffer (`pack`). Widest elements first, so that every view is aligned.
 */
export class ColumnPacker {
  private readonly columns: { array: Column; put: (view: Column) => void }[] = [];
  private bytes = 0;

  add<T extends Column>(array: T, put: (view: T) => void): void {
    if (array.length === 0) return;
    this.columns.push({ array, put: put as (view: Column) => void });
    this.bytes += array.byteLength;
  }

  /** Bytes of the columns added. */
  get byteLength(): number {
    return this.bytes;
  }

  /** Copies the columns into one new buffer and puts each one's view back; false (nothing done) when they are more than `atMost` bytes together. */
  pack(atMost = PACK_AT_MOST_BYTES): boolean {
    if (!packColumnsSwitch.enabled || this.bytes > atMost || this.columns.length === 0) return false;
    const order = [...this.columns].sort((x, y) => y.array.BYTES_PER_ELEMENT - x.array.BYTES_PER_ELEMENT);
    const buffer = new ArrayBuffer(this.bytes);
    let at = 0;
    for (const { array, put } of order) {
      const view = viewLike(array, buffer, at, array.length);
      view.set(array);
      put(view);
      at += array.byteLength;
    }
    return true;
  }
}

/** Whether `array` is a view of part of a larger buffer (a packed column, or a section of a snapshot's numbers). */
export function sharesBuffer(array: Column): boolean {
  return array.byteLength !== array.buffer.byteLength;
}
