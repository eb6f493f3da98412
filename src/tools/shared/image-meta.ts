/**
 * Metadata every image tool shares: the input image field and the limits. Plain data, so each
 * `meta.ts` stays data (the catalogue ships it as JSON).
 */
export const imageInputField = {
  type: 'string',
  contentEncoding: 'base64',
  contentMediaType: 'image/*',
  description: 'The image: PNG, JPEG, WebP or GIF, up to 50 megapixels.',
} as const;

/** About 22 MB of image as Base64; decoding and re-encoding 50 megapixels takes seconds on a small machine. */
export const imageToolLimits = { maxInputBytes: 30_000_000, timeoutMs: 20_000 } as const;
