/** JPEG and PNG images → one PDF, one image per page. JPEGs are embedded as they are (no re-encoding). */
import { PDFDocument, PageSizes, type PDFImage } from 'pdf-lib';
import { pdfFile, savePdf } from '../shared/pdf-output.js';
import { ToolInputError, type ToolFile } from '../types.js';
import { type ImageKind, imageKind, imageSize, otherFormatName } from './image-header.js';

export interface ImagesToPdfInput {
  images: Uint8Array[];
  pageSize?: 'fit' | 'a4' | 'letter';
  /** Margin in points (1/72 inch) on A4 and Letter pages. */
  margin?: number;
}

export interface ImagesToPdfOutput {
  file: ToolFile;
  pageCount: number;
}

const maxImages = 200;
const maxPixels = 50_000_000;
/** PDF viewers refuse pages over 14 400 points (200 inches) a side. */
const maxPagePoints = 14_400;

function checkImage(bytes: Uint8Array, i: number): ImageKind {
  const field = `images/${i}`;
  const label = `Image ${i + 1}`;
  if (bytes.length === 0) throw new ToolInputError(`${label} is empty.`, { field });
  const kind = imageKind(bytes);
  if (!kind) {
    const other = otherFormatName(bytes);
    const what = other ? `a ${other} file` : 'not a JPEG or PNG image';
    throw new ToolInputError(`${label} is ${what}: only JPEG and PNG images are supported. Convert it first.`, { field, kind: 'unsupported_type' });
  }
  const size = imageSize(bytes, kind);
  if (!size || size.width === 0 || size.height === 0) throw new ToolInputError(`${label} could not be read: its header is damaged.`, { field });
  if (size.width * size.height > maxPixels) {
    throw new ToolInputError(`${label} is ${size.width}×${size.height} pixels; at most 50 megapixels are accepted.`, { field, kind: 'too_large' });
  }
  return kind;
}

async function embed(doc: PDFDocument, bytes: Uint8Array, kind: ImageKind, i: number): Promise<PDFImage> {
  try {
    return kind === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    throw new ToolInputError(`Image ${i + 1} could not be read: the file is damaged.`, { field: `images/${i}` });
  }
}

/** Page size and where the image goes on it. */
function layout(image: PDFImage, pageSize: 'fit' | 'a4' | 'letter', margin: number) {
  if (pageSize === 'fit') {
    // One pixel is one point (72 dpi), scaled down only past the viewers' page limit.
    const scale = Math.min(1, maxPagePoints / Math.max(image.width, image.height));
    const width = image.width * scale;
    const height = image.height * scale;
    return { page: [width, height] as [number, number], x: 0, y: 0, width, height };
  }
  const [short, long] = pageSize === 'a4' ? PageSizes.A4 : PageSizes.Letter;
  // The page turns to landscape for landscape images.
  const page: [number, number] = image.width > image.height ? [long, short] : [short, long];
  const scale = Math.min((page[0] - 2 * margin) / image.width, (page[1] - 2 * margin) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  return { page, x: (page[0] - width) / 2, y: (page[1] - height) / 2, width, height };
}

export async function run(input: ImagesToPdfInput): Promise<ImagesToPdfOutput> {
  const { images } = input;
  const pageSize = input.pageSize ?? 'fit';
  const margin = input.margin ?? 36;
  if (images.length === 0) throw new ToolInputError('Give at least one image.', { field: 'images' });
  if (images.length > maxImages) throw new ToolInputError(`At most ${maxImages} images can go into one PDF.`, { field: 'images', kind: 'too_large' });
  if (!(margin >= 0 && margin <= 144)) throw new ToolInputError('The margin must be between 0 and 144 points (2 inches).', { field: 'margin' });
  // Every header is checked before any image is decoded.
  const kinds = images.map(checkImage);
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const [i, bytes] of images.entries()) {
    const image = await embed(doc, bytes, kinds[i] as ImageKind, i);
    const place = layout(image, pageSize, margin);
    doc.addPage(place.page).drawImage(image, { x: place.x, y: place.y, width: place.width, height: place.height });
  }
  return { file: pdfFile('images.pdf', await savePdf(doc)), pageCount: images.length };
}
