/** The developer tools, in catalogue order. */
import { meta as base64 } from '../base64/meta.js';
import { meta as caseConvert } from '../case-convert/meta.js';
import { meta as colorConvert } from '../color-convert/meta.js';
import { meta as cronExplain } from '../cron-explain/meta.js';
import { meta as hash } from '../hash/meta.js';
import { meta as jsonConvert } from '../json-convert/meta.js';
import { meta as jsonFormat } from '../json-format/meta.js';
import { meta as jwtDecode } from '../jwt-decode/meta.js';
import { meta as loremIpsum } from '../lorem-ipsum/meta.js';
import { meta as markdownPreview } from '../markdown-preview/meta.js';
import { meta as passwordGen } from '../password-gen/meta.js';
import { meta as qrCode } from '../qr-code/meta.js';
import { meta as qrRead } from '../qr-read/meta.js';
import { meta as regexTester } from '../regex-tester/meta.js';
import { meta as sqlFormat } from '../sql-format/meta.js';
import { meta as textDiff } from '../text-diff/meta.js';
import { meta as timestamp } from '../timestamp/meta.js';
import { meta as urlEncode } from '../url-encode/meta.js';
import { meta as uuid } from '../uuid/meta.js';
import type { ToolEntry } from './entry.js';

export const developerTools: ToolEntry[] = [
  { meta: jsonFormat, load: () => import('../json-format/core.js') },
  { meta: base64, load: () => import('../base64/core.js') },
  { meta: hash, load: () => import('../hash/core.js') },
  { meta: uuid, load: () => import('../uuid/core.js') },
  { meta: urlEncode, load: () => import('../url-encode/core.js') },
  { meta: jsonConvert, load: () => import('../json-convert/core.js') },
  { meta: jwtDecode, load: () => import('../jwt-decode/core.js') },
  // Page only (api: false): the runner never runs it; the core is what the page's Worker runs.
  { meta: regexTester, load: () => import('../regex-tester/core.js') },
  { meta: textDiff, load: () => import('../text-diff/core.js') },
  { meta: cronExplain, load: () => import('../cron-explain/core.js') },
  { meta: timestamp, load: () => import('../timestamp/core.js') },
  { meta: colorConvert, load: () => import('../color-convert/core.js') },
  { meta: passwordGen, load: () => import('../password-gen/core.js') },
  { meta: loremIpsum, load: () => import('../lorem-ipsum/core.js') },
  { meta: markdownPreview, load: () => import('../markdown-preview/core.js') },
  { meta: sqlFormat, load: () => import('../sql-format/core.js') },
  { meta: caseConvert, load: () => import('../case-convert/core.js') },
  { meta: qrCode, load: () => import('../qr-code/core.js') },
  { meta: qrRead, load: () => import('../qr-read/server.js') },
];
