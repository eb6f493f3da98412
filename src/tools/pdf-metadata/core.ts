/**
 * Reads a PDF's document information (title, author, dates…) and page sizes, and optionally
 * writes new values. Only the Info dictionary is changed: an XMP metadata stream, if present, is
 * left as it was (see `warnings`).
 */
import { PDFDict, PDFName, type PDFDocument } from 'pdf-lib';
import { loadPdf } from '../shared/pdf-load.js';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { ToolInputError, type ToolFile } from '../types.js';
import { parseIsoDate } from './dates.js';

const textFields = ['title', 'author', 'subject', 'keywords', 'creator', 'producer'] as const;
const dateFields = ['creationDate', 'modificationDate'] as const;
type TextField = (typeof textFields)[number];
type DateField = (typeof dateFields)[number];

export type PdfMetadataInput = { file: Uint8Array; mode?: 'read' | 'edit' } & Partial<Record<TextField | DateField, string>>;

export interface PdfMetadata {
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  creationDate: string | null;
  modificationDate: string | null;
  pageCount: number;
  /** Distinct page sizes in points, with how many pages have each. */
  pageSizes: { width: number; height: number; pages: number }[];
}

export type PdfMetadataOutput = PdfMetadata & { file?: ToolFile; warnings?: string[] };

/** The Info dictionary's key for each field. */
const infoKeys: Record<TextField | DateField, string> = {
  title: 'Title',
  author: 'Author',
  subject: 'Subject',
  keywords: 'Keywords',
  creator: 'Creator',
  producer: 'Producer',
  creationDate: 'CreationDate',
  modificationDate: 'ModDate',
};

function safeDate(read: () => Date | undefined): string | null {
  try {
    const date = read();
    return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
  } catch {
    return null;
  }
}

function safeText(read: () => string | undefined): string | null {
  try {
    return read() ?? null;
  } catch {
    return null;
  }
}

function readMetadata(doc: PDFDocument): PdfMetadata {
  const sizes = new Map<string, { width: number; height: number; pages: number }>();
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    // A page turned by 90° or 270° is seen landscape.
    const turned = page.getRotation().angle % 180 !== 0;
    const size = { width: Math.round((turned ? height : width) * 100) / 100, height: Math.round((turned ? width : height) * 100) / 100 };
    const key = `${size.width}x${size.height}`;
    const entry = sizes.get(key) ?? { ...size, pages: 0 };
    entry.pages++;
    sizes.set(key, entry);
  }
  return {
    title: safeText(() => doc.getTitle()),
    author: safeText(() => doc.getAuthor()),
    subject: safeText(() => doc.getSubject()),
    keywords: safeText(() => doc.getKeywords()),
    creator: safeText(() => doc.getCreator()),
    producer: safeText(() => doc.getProducer()),
    creationDate: safeDate(() => doc.getCreationDate()),
    modificationDate: safeDate(() => doc.getModificationDate()),
    pageCount: doc.getPageCount(),
    pageSizes: [...sizes.values()],
  };
}

function infoDict(doc: PDFDocument): PDFDict {
  const existing = doc.context.lookup(doc.context.trailerInfo.Info);
  if (existing instanceof PDFDict) return existing;
  const created = doc.context.obj({});
  doc.context.trailerInfo.Info = doc.context.register(created);
  return created;
}

/** Sets the given fields; an empty string removes a field. */
function applyEdits(doc: PDFDocument, input: PdfMetadataInput): number {
  const dates = new Map(dateFields.filter((f) => input[f]?.trim()).map((f) => [f, parseIsoDate(input[f] as string, f)]));
  let changed = 0;
  for (const field of [...textFields, ...dateFields]) {
    const value = input[field];
    if (value === undefined) continue;
    changed++;
    if (value.trim() === '') {
      infoDict(doc).delete(PDFName.of(infoKeys[field]));
      continue;
    }
    if (field === 'title') doc.setTitle(value);
    else if (field === 'author') doc.setAuthor(value);
    else if (field === 'subject') doc.setSubject(value);
    // Keywords are stored as one string; pdf-lib joins a list with spaces.
    else if (field === 'keywords') doc.setKeywords([value]);
    else if (field === 'creator') doc.setCreator(value);
    else if (field === 'producer') doc.setProducer(value);
    else if (field === 'creationDate') doc.setCreationDate(dates.get(field) as Date);
    else doc.setModificationDate(dates.get(field) as Date);
  }
  return changed;
}

export async function run(input: PdfMetadataInput): Promise<PdfMetadataOutput> {
  const doc = await loadPdf(input.file);
  if ((input.mode ?? 'read') === 'read') return readMetadata(doc);
  if (applyEdits(doc, input) === 0) {
    throw new ToolInputError('Edit mode needs at least one field to set (an empty value removes a field).', { field: 'mode' });
  }
  const output: PdfMetadataOutput = { ...readMetadata(doc), file: pdfFile('edited.pdf', await savePdf(doc)) };
  if (doc.catalog.has(PDFName.of('Metadata'))) {
    output.warnings = ['This PDF also has an XMP metadata stream, which was not changed: some viewers show those values instead.'];
  }
  return output;
}
