/** The developer tools, in catalogue order. */
import { meta as base64 } from '../base64/meta.js';
import { meta as hash } from '../hash/meta.js';
import { meta as jsonFormat } from '../json-format/meta.js';
import { meta as urlEncode } from '../url-encode/meta.js';
import { meta as uuid } from '../uuid/meta.js';
import type { ToolEntry } from './entry.js';

export const developerTools: ToolEntry[] = [
  { meta: jsonFormat, load: () => import('../json-format/core.js') },
  { meta: base64, load: () => import('../base64/core.js') },
  { meta: hash, load: () => import('../hash/core.js') },
  { meta: uuid, load: () => import('../uuid/core.js') },
  { meta: urlEncode, load: () => import('../url-encode/core.js') },
];
