import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'color-convert',
  group: 'developer',
  name: 'Color converter and contrast checker',
  description: 'Convert a colour between hex, rgb, hsl, hwb and CSS names, and check the WCAG contrast ratio against a second colour.',
  keywords: ['color', 'colour', 'hex', 'rgb', 'hsl', 'hwb', 'contrast', 'wcag', 'a11y', 'convert'],
  api: true,
  limits: { maxInputBytes: 10_000 },
  inputSchema: {
    type: 'object',
    properties: {
      color: { type: 'string', 'x-ui': 'line', maxLength: 100, description: 'A colour: #1e90ff, rgb(30 144 255), hsl(210 100% 56%), hwb(210 12% 0%) or a CSS name.' },
      against: { type: 'string', 'x-ui': 'line', maxLength: 100, description: 'Optional second colour (e.g. the background) for the WCAG contrast ratio.' },
    },
    required: ['color'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'Hex with contrast against white',
      input: { color: '#1e90ff', against: 'white' },
      output: {
        hex: '#1e90ff', rgb: 'rgb(30, 144, 255)', hsl: 'hsl(210, 100%, 56%)', hwb: 'hwb(210 12% 0%)', name: 'dodgerblue', nameIsExact: true, alpha: 1, luminance: 0.27,
        contrast: { against: '#ffffff', ratio: 3.23, aa: false, aaLarge: true, aaa: false, aaaLarge: false },
      },
    },
    {
      title: 'HSL, closest name',
      input: { color: 'hsl(0, 0%, 20%)', against: '#fff' },
      outputMatches: { hex: '#333333', name: 'darkslategray', nameIsExact: false, contrast: { ratio: 12.63, aa: true, aaa: true } },
    },
    { title: 'Transparent red', input: { color: 'rgb(255 0 0 / 50%)' }, outputMatches: { hex: '#ff000080', rgb: 'rgba(255, 0, 0, 0.5)', alpha: 0.5 } },
  ],
};
