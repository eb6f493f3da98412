/** The image tools, in catalogue order: sharp on the server (`server.ts`) where pixels are decoded. */
import { meta as colorPalette } from '../color-palette/meta.js';
import { meta as exifViewStrip } from '../exif-view-strip/meta.js';
import { meta as faviconGen } from '../favicon-gen/meta.js';
import { meta as imageBase64 } from '../image-base64/meta.js';
import { meta as imageCompress } from '../image-compress/meta.js';
import { meta as imageConvert } from '../image-convert/meta.js';
import { meta as imageCrop } from '../image-crop/meta.js';
import { meta as imageResize } from '../image-resize/meta.js';
import { meta as imageRotateFlip } from '../image-rotate-flip/meta.js';
import type { ToolEntry } from './entry.js';

export const imageTools: ToolEntry[] = [
  { meta: imageResize, load: () => import('../image-resize/server.js') },
  { meta: imageConvert, load: () => import('../image-convert/server.js') },
  { meta: imageCompress, load: () => import('../image-compress/server.js') },
  { meta: imageCrop, load: () => import('../image-crop/server.js') },
  { meta: imageRotateFlip, load: () => import('../image-rotate-flip/server.js') },
  { meta: exifViewStrip, load: () => import('../exif-view-strip/server.js') },
  { meta: colorPalette, load: () => import('../color-palette/server.js') },
  { meta: faviconGen, load: () => import('../favicon-gen/server.js') },
  { meta: imageBase64, load: () => import('../image-base64/core.js') },
];
