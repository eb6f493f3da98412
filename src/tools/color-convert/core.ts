/** Colours with colord (names, hwb and a11y plugins): any CSS form in, every form out. */
import { type Colord, colord, extend, getFormat } from 'colord';
import a11yPlugin from 'colord/plugins/a11y';
import hwbPlugin from 'colord/plugins/hwb';
import namesPlugin from 'colord/plugins/names';
import { ToolInputError } from '../types.js';

extend([namesPlugin, hwbPlugin, a11yPlugin]);

export interface ColorConvertInput {
  color: string;
  against?: string;
}

export interface ColorContrast {
  against: string;
  /** WCAG 2 contrast ratio, 1 to 21. */
  ratio: number;
  /** Passes WCAG AA for normal text (4.5:1) and large text (3:1); AAA (7:1, 4.5:1). */
  aa: boolean;
  aaLarge: boolean;
  aaa: boolean;
  aaaLarge: boolean;
}

export interface ColorConvertOutput {
  hex: string;
  rgb: string;
  hsl: string;
  hwb: string;
  /** The CSS name when the colour has one exactly, else the closest named colour. */
  name: string;
  nameIsExact: boolean;
  alpha: number;
  luminance: number;
  contrast?: ColorContrast;
  warnings?: string[];
}

function parse(text: string, field: string): Colord {
  const value = text.trim().toLowerCase();
  // A bare hex without "#" is common when copying from design tools.
  const candidate = /^[0-9a-f]{3,8}$/.test(value) && getFormat(value) === undefined ? `#${value}` : value;
  const color = colord(candidate);
  if (!color.isValid()) throw new ToolInputError(`"${text}" is not a colour: use hex (#1e90ff), rgb(), hsl(), hwb() or a CSS name.`, { field });
  return color;
}

function contrast(color: Colord, other: Colord): ColorContrast {
  return {
    against: other.toHex(),
    ratio: color.contrast(other),
    aa: color.isReadable(other, { level: 'AA', size: 'normal' }),
    aaLarge: color.isReadable(other, { level: 'AA', size: 'large' }),
    aaa: color.isReadable(other, { level: 'AAA', size: 'normal' }),
    aaaLarge: color.isReadable(other, { level: 'AAA', size: 'large' }),
  };
}

export function run(input: ColorConvertInput): ColorConvertOutput {
  const color = parse(input.color, 'color');
  const exact = color.toName();
  const output: ColorConvertOutput = {
    hex: color.toHex(),
    rgb: color.toRgbString(),
    hsl: color.toHslString(),
    hwb: color.toHwbString(),
    name: exact ?? color.toName({ closest: true }) ?? '',
    nameIsExact: exact !== undefined,
    alpha: color.alpha(),
    luminance: color.luminance(),
  };
  if (input.against !== undefined && input.against.trim() !== '') {
    const other = parse(input.against, 'against');
    output.contrast = contrast(color, other);
    // WCAG contrast is defined for opaque colours; colord ignores alpha.
    if (color.alpha() < 1 || other.alpha() < 1) output.warnings = ['The contrast ratio ignores transparency: check it against the colour as it appears on its background.'];
  }
  return output;
}
