/**
 * robots.txt (RFC 9309) as the web importer honours it: the group naming our product token
 * (`GroundworkImporter`, case-insensitive) if there is one, else the `*` group; several groups for
 * the same agent are merged. A path is allowed unless its longest matching rule is a Disallow (an
 * Allow wins a tie); `*` matches any run of characters and a final `$` anchors the end. Paths are
 * compared percent-encoded, as they travel. Pure: fetching (and what a missing or failing robots.txt
 * means) is web-fetch.ts's business.
 */

export const ROBOTS_PRODUCT_TOKEN = 'GroundworkImporter';

export interface RobotsRule {
  allow: boolean;
  pattern: string;
}

export interface RobotsRules {
  /** Empty: everything is allowed. */
  rules: RobotsRule[];
  /** Set when the whole site is refused (robots.txt unreachable or answering 5xx). */
  disallowAll?: string;
}

export const allowAll: RobotsRules = { rules: [] };

/** The rules of `text` for `token` (else for `*`). Unknown lines and lines before any group are ignored. */
export function parseRobots(text: string, token = ROBOTS_PRODUCT_TOKEN): RobotsRules {
  const wanted = token.toLowerCase();
  const mine: RobotsRule[] = [];
  const star: RobotsRule[] = [];
  let sawMine = false;
  let agents: string[] = [];
  let inRules = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      // A user-agent line after rules starts a new group.
      if (inRules) {
        agents = [];
        inRules = false;
      }
      agents.push(value.toLowerCase());
      if (value.toLowerCase() === wanted) sawMine = true;
      continue;
    }
    if (key !== 'allow' && key !== 'disallow') continue;
    inRules = true;
    // An empty Disallow allows everything: it is no rule at all.
    if (value === '') continue;
    const rule = { allow: key === 'allow', pattern: normalisePath(value) };
    if (agents.includes(wanted)) mine.push(rule);
    if (agents.includes('*')) star.push(rule);
  }
  return { rules: sawMine ? mine : star };
}

/** Whether `url`'s path (with its query) may be fetched under `rules`; the matching rule when not. */
export function robotsVerdict(rules: RobotsRules, url: URL): { allowed: true } | { allowed: false; reason: string } {
  if (rules.disallowAll) return { allowed: false, reason: rules.disallowAll };
  const target = normalisePath(`${url.pathname}${url.search}`);
  let best: RobotsRule | undefined;
  for (const rule of rules.rules) {
    if (!matches(rule.pattern, target)) continue;
    const longer = !best || rule.pattern.length > best.pattern.length;
    const tieAllow = best && rule.pattern.length === best.pattern.length && rule.allow && !best.allow;
    if (longer || tieAllow) best = rule;
  }
  if (!best || best.allow) return { allowed: true };
  return { allowed: false, reason: `robots.txt disallows it for ${ROBOTS_PRODUCT_TOKEN} ("Disallow: ${best.pattern}")` };
}

/** Percent-encodes what is not already (so "/a b" and "/a%20b" compare equal), upper-case escapes. */
function normalisePath(path: string): string {
  return path.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase()).replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
}

/**
 * `*` matches any run, a final `$` anchors the end, otherwise a prefix match. The classic greedy
 * matcher with one backtrack point (no regular expression: a robots.txt is someone else's input,
 * and `/*a*a*a*a*b` must not cost exponential time).
 */
function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : `${pattern}*`;
  let i = 0;
  let j = 0;
  let star = -1;
  let resume = 0;
  while (j < path.length) {
    if (i < p.length && p[i] !== '*' && p[i] === path[j]) {
      i++;
      j++;
    } else if (i < p.length && p[i] === '*') {
      star = i++;
      resume = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++resume;
    } else return false;
  }
  while (i < p.length && p[i] === '*') i++;
  return i === p.length;
}
