import type { ToolMeta } from '../types.js';

export const meta: ToolMeta = {
  id: 'images-to-pdf',
  group: 'pdf',
  name: 'Images to PDF (JPEG, PNG)',
  description: 'Put JPEG and PNG images into one PDF, one image per page, either with pages the size of each image or centred on A4 or Letter pages with a margin. JPEGs are embedded without re-compression.',
  keywords: ['image to pdf', 'jpg to pdf', 'png to pdf', 'photos', 'convert', 'pdf'],
  api: true,
  limits: { maxInputBytes: 60_000_000, timeoutMs: 30_000 },
  inputSchema: {
    type: 'object',
    properties: {
      images: {
        type: 'array',
        description: 'JPEG or PNG images, one per page, in order.',
        minItems: 1,
        maxItems: 200,
        items: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/*' },
      },
      pageSize: {
        type: 'string',
        enum: ['fit', 'a4', 'letter'],
        default: 'fit',
        description: '"fit": each page is the size of its image (1 pixel = 1 point); "a4" / "letter": the image is scaled to fit inside the margins, landscape pages for landscape images.',
      },
      margin: { type: 'number', minimum: 0, maximum: 144, default: 36, description: 'Margin on A4 and Letter pages, in points (72 points = 1 inch).' },
    },
    required: ['images'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'A PNG and a JPEG, pages the size of each image',
      input: { images: ['iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWM4IScHRww4OQD1xwwx6wqgCwAAAABJRU5ErkJggg==', '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAGAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAwb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCXAVAH/9k='], pageSize: 'fit' },
      outputMatches: { pageCount: 2, file: { name: 'images.pdf', type: 'application/pdf' } },
    },
    {
      title: 'A JPEG on an A4 page with a 1-inch margin',
      input: { images: ['/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAGAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAwb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCXAVAH/9k='], pageSize: 'a4', margin: 72 },
      outputMatches: { pageCount: 1, file: { name: 'images.pdf', type: 'application/pdf' } },
    },
  ],
};
