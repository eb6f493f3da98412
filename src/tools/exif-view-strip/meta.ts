import { imageInputField, imageToolLimits } from '../shared/image-meta.js';
import type { ToolMeta } from '../types.js';

/** An 8 × 6 JPEG with camera fields, a date and GPS coordinates (made with sharp's withExif). */
const photoWithGps =
  '/9j/4QG0RXhpZgAASUkqAAgAAAALAA8BAgALAAAAzAAAABABAgAPAAAAvAAAABIBAwABAAAAAQAAABoBBQABAAAAkgAAABsBBQABAAAAmgAAACgBAwABAAAAAgAAADEBAgAGAAAAtgAAADIBAgAUAAAAogAAABMCAwABAAAAAQAAAGmHBAABAAAA2AAAACWIBAABAAAARgEAAAAAAAA4YwAA6AMAADhjAADoAwAAMjAyNjoxMToyMSAwOTozMDowMABzaGFycABFeGFtcGxlIENhbWVyYQAAR3JvdW5kd29yawAABwAAkAcABAAAADAyMTADkAIAFAAAADIBAAABkQcABAAAAAECAwAAoAcABAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAAAgAAAADoAQAAQAAAAYAAAAAAAAAMjAyNjoxMToyMSAwOTozMDowMAAEAAEAAgACAAAATgAAAAIABQADAAAAlAEAAAMAAgACAAAARQAAAAQABQADAAAAfAEAAAAAAAAEAAAAAQAAADUAAAABAAAAuAsAAGQAAAA0AAAAAQAAABYAAAABAAAAzgQAAGQAAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAGAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKABiz//2Q==';

export const meta: ToolMeta = {
  id: 'exif-view-strip',
  group: 'image',
  name: 'EXIF metadata viewer and remover',
  description:
    'See the metadata inside a photo — camera, date, software, orientation and GPS location — or remove it all by re-encoding the image (JPEG and WebP lose a little quality; orientation is applied to the pixels).',
  keywords: ['exif', 'metadata', 'gps', 'location', 'privacy', 'remove', 'strip', 'camera', 'photo'],
  api: true,
  browser: 'browser',
  server: 'server',
  limits: imageToolLimits,
  inputSchema: {
    type: 'object',
    properties: {
      image: imageInputField,
      mode: { type: 'string', enum: ['view', 'strip'], default: 'view', description: 'view lists the metadata; strip returns a copy without any.' },
    },
    required: ['image'],
    additionalProperties: false,
  },
  examples: [
    {
      title: 'See camera, date and GPS',
      input: { image: photoWithGps, mode: 'view' },
      output: {
        result: 'Make: Groundwork\nModel: Example Camera\nDate taken: 2026-11-21 09:30:00\nSoftware: sharp\nOrientation: Horizontal (normal)\nGPS: 52.370083, 4.891667',
        hasMetadata: true,
        make: 'Groundwork',
        model: 'Example Camera',
        dateTaken: '2026-11-21 09:30:00',
        software: 'sharp',
        orientation: 'Horizontal (normal)',
        gps: { latitude: 52.37008333333333, longitude: 4.891666666666667 },
        tags: {
          Make: 'Groundwork',
          Model: 'Example Camera',
          Orientation: 'Horizontal (normal)',
          XResolution: 25.4,
          YResolution: 25.4,
          ResolutionUnit: 'inches',
          Software: 'sharp',
          ModifyDate: '2026:11:21 09:30:00',
          YCbCrPositioning: 1,
          DateTimeOriginal: '2026:11:21 09:30:00',
          ColorSpace: 65535,
          ExifImageWidth: 8,
          ExifImageHeight: 6,
          GPSLatitudeRef: 'N',
          GPSLatitude: [52, 22, 12.3],
          GPSLongitudeRef: 'E',
          GPSLongitude: [4, 53, 30],
          latitude: 52.37008333333333,
          longitude: 4.891666666666667,
        },
        warnings: ['The image contains GPS coordinates: anyone you share it with can see where it was taken. Use strip mode to remove them.'],
      },
    },
    {
      title: 'Remove all metadata',
      input: { image: photoWithGps, mode: 'strip' },
      outputMatches: { width: 8, height: 6, format: 'jpeg', removed: ['EXIF', 'GPS'], file: { name: 'stripped-8x6.jpg', type: 'image/jpeg' } },
    },
  ],
};
