/**
 * Drawing text on existing pages (watermarks, page numbers) with the standard Helvetica font.
 * Standard fonts are not embedded, which keeps files small, but they only cover the WinAnsi
 * character set: text outside it is refused with the character named, rather than drawn wrong.
 */
import { type PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb, degrees } from 'pdf-lib';
import { ToolInputError } from '../types.js';

export const stampPositions = ['top-left', 'top-center', 'top-right', 'center', 'bottom-left', 'bottom-center', 'bottom-right'] as const;
export type StampPosition = (typeof stampPositions)[number];

export async function helvetica(doc: PDFDocument): Promise<PDFFont> {
  return doc.embedFont(StandardFonts.Helvetica);
}

function describeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code < 0x20 || code === 0x7f ? hex : `"${char}" (${hex})`;
}

/** Refuses text the standard font cannot draw, naming the first such character. */
export function assertDrawable(font: PDFFont, text: string, field: string): void {
  for (const char of text) {
    try {
      font.encodeText(char);
    } catch {
      throw new ToolInputError(
        `The character ${describeCharacter(char)} cannot be drawn with the built-in Helvetica font, which covers Western European text only (WinAnsi).`,
        { field },
      );
    }
  }
}

/** "#rrggbb" → a pdf-lib colour (the schema checks the pattern). */
export function hexColor(hex: string): ReturnType<typeof rgb> {
  const value = Number.parseInt(hex.slice(1), 16);
  return rgb(((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255);
}

export interface StampStyle {
  font: PDFFont;
  size: number;
  position: StampPosition;
  /** Distance from the page edge, in points. */
  margin: number;
  rotation?: number;
  opacity?: number;
  color?: ReturnType<typeof rgb>;
}

/**
 * Maps a point of the page as a viewer shows it (after /Rotate, origin at its lower left) to
 * the page's own coordinates. Viewers turn the page clockwise by `rotation` degrees.
 */
function fromViewed(u: number, v: number, rotation: number, box: { x: number; y: number; width: number; height: number }): [number, number] {
  if (rotation === 90) return [box.x + box.width - v, box.y + u];
  if (rotation === 180) return [box.x + box.width - u, box.y + box.height - v];
  if (rotation === 270) return [box.x + v, box.y + box.height - u];
  return [box.x + u, box.y + v];
}

/**
 * Draws one line of text so that its (rotated) box sits at the position of the page as viewers
 * show it (crop box, turned by the page's /Rotate), `margin` points from the edges.
 */
export function stampText(page: PDFPage, text: string, style: StampStyle): void {
  const { font, size, position, margin } = style;
  const pageRotation = ((page.getRotation().angle % 360) + 360) % 360;
  const turn = pageRotation % 90 === 0 ? pageRotation : 0;
  const angle = ((style.rotation ?? 0) * Math.PI) / 180;
  const width = font.widthOfTextAtSize(text, size);
  const height = font.heightAtSize(size, { descender: false });
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // Half the size of the rotated text's bounding box.
  const halfW = Math.abs((width / 2) * cos) + Math.abs((height / 2) * sin);
  const halfH = Math.abs((width / 2) * sin) + Math.abs((height / 2) * cos);
  const box = page.getCropBox();
  const sideways = turn === 90 || turn === 270;
  const viewedWidth = sideways ? box.height : box.width;
  const viewedHeight = sideways ? box.width : box.height;
  const [vertical, horizontal] = position === 'center' ? ['center', 'center'] : position.split('-');
  const cu = horizontal === 'left' ? margin + halfW : horizontal === 'right' ? viewedWidth - margin - halfW : viewedWidth / 2;
  const cv = vertical === 'top' ? viewedHeight - margin - halfH : vertical === 'bottom' ? margin + halfH : viewedHeight / 2;
  const [cx, cy] = fromViewed(cu, cv, turn, box);
  // On the page the text turns by its own angle plus the page's rotation (counter-clockwise).
  const total = ((style.rotation ?? 0) + turn) % 360;
  const t = (total * Math.PI) / 180;
  // pdf-lib rotates around the text origin (its lower-left corner): move the origin so the centre lands on (cx, cy).
  const x = cx - ((width / 2) * Math.cos(t) - (height / 2) * Math.sin(t));
  const y = cy - ((width / 2) * Math.sin(t) + (height / 2) * Math.cos(t));
  page.drawText(text, {
    x,
    y,
    size,
    font,
    rotate: degrees(total),
    opacity: style.opacity ?? 1,
    color: style.color ?? rgb(0, 0, 0),
  });
}
