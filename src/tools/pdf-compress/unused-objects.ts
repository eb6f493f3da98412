/**
 * Objects no page, outline or info entry points to (left behind by earlier incremental edits)
 * still take space in the file. This walks the references from the trailer and drops the rest.
 */
import { PDFArray, PDFDict, type PDFDocument, type PDFObject, PDFRef, PDFStream } from 'pdf-lib';

function children(object: PDFObject): PDFObject[] {
  if (object instanceof PDFArray) return object.asArray();
  if (object instanceof PDFDict) return object.entries().map(([, value]) => value);
  if (object instanceof PDFStream) return children(object.dict);
  return [];
}

/** Removes unreachable indirect objects; returns how many were removed. */
export function dropUnusedObjects(doc: PDFDocument): number {
  const { context } = doc;
  const reachable = new Set<PDFRef>();
  const pending: PDFObject[] = [context.trailerInfo.Root, context.trailerInfo.Info].filter((o): o is PDFObject => o !== undefined);
  while (pending.length > 0) {
    const object = pending.pop() as PDFObject;
    if (object instanceof PDFRef) {
      if (reachable.has(object)) continue;
      reachable.add(object);
      const target = context.lookup(object);
      if (target) pending.push(target);
      continue;
    }
    pending.push(...children(object));
  }
  let removed = 0;
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reachable.has(ref) && context.delete(ref)) removed++;
  }
  return removed;
}
