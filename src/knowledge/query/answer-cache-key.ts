/**
 * The answer cache's key policy. Two queries share an answer when they are the same
 * question (`sameQuestion`), on the same knowledge base, at the same content version, in
 * the same mode (e.g. `answer`, `search:10`), with the same context. Domain policy, not a
 * cache mechanism: the backends (src/adapters/cache) only store what they are given.
 */
import { createHash } from 'node:crypto';
import type { SynonymGroups } from '../synonyms.js';
import { sameQuestion } from './same-question.js';

/** Normalised queries up to this many characters go into the key as text; longer ones as their SHA-256. */
const MAX_PLAIN_QUERY = 200;

/**
 * `answer:v3:<ragId>:<contentVersion>:<mode>:q:<normalised query>` for queries of up to
 * MAX_PLAIN_QUERY characters (most are), `…:h:<sha256(normalised query)>` for longer ones, so
 * the key's length stays bounded whatever the query (up to 4,000 characters) and the common case
 * costs no hashing. Every part is URI-encoded, so none can forge a separator, and `q:`/`h:` keep
 * the two forms apart. The query is normalised here, so callers cannot split the cache by
 * passing a raw query.
 *
 * An answer that also depends on a context — the earlier turns of a follow-up, the knowledge
 * base's own fallback message, its owner's synonyms — gets `:c:<sha256 of the JSON
 * [fallbackMessage, [[role, content], …]]>` appended (with the synonyms' own SHA-256 as a third
 * element when there are any), so two conversations never share an answer, nor answers made
 * before and after the synonyms changed; without a context the key is as before.
 * Turns go in as sent (already trimmed by validation), not normalised: they are context, not the question.
 */
export function answerCacheKey(ragId: string, contentVersion: string | number, query: string, mode: string, context: AnswerContext = {}): string {
  const normalised = sameQuestion(query);
  const head = headOf(ragId, contentVersion, mode);
  const tail = contextPart(context);
  if (normalised.length <= MAX_PLAIN_QUERY) return `${head}:q:${part(normalised)}${tail}`;
  return `${head}:h:${sha256(normalised)}${tail}`;
}

const part = (value: string | number) => encodeURIComponent(String(value));

/**
 * The key's head for the last knowledge base, version and mode asked: a knowledge base's visitors
 * ask one after another, and encoding the three parts again cost as much as the question's.
 */
let lastHead = { ragId: '', contentVersion: '' as string | number, mode: '', head: '' };

function headOf(ragId: string, contentVersion: string | number, mode: string): string {
  const last = lastHead;
  if (last.ragId === ragId && last.contentVersion === contentVersion && last.mode === mode && last.head !== '') return last.head;
  const head = `answer:v3:${part(ragId)}:${part(contentVersion)}:${part(mode)}`;
  lastHead = { ragId, contentVersion, mode, head };
  return head;
}

/** What an answer depends on besides the question, knowledge base, content and mode. */
export interface AnswerContext {
  conversation?: readonly { role: string; content: string }[] | undefined;
  fallbackMessage?: string | null | undefined;
  synonyms?: SynonymGroups | undefined;
}

function contextPart({ conversation = [], fallbackMessage, synonyms }: AnswerContext): string {
  const words = synonyms === undefined || synonyms.length === 0 ? undefined : synonymsDigest(synonyms);
  if (conversation.length === 0 && !fallbackMessage && words === undefined) return '';
  const context: unknown[] = [fallbackMessage || null, conversation.map((turn) => [turn.role, turn.content])];
  if (words !== undefined) context.push(words);
  return `:c:${sha256(JSON.stringify(context))}`;
}

/** The synonyms' SHA-256, once per array (a stored row's groups are one array while it is unchanged). */
const digests = new WeakMap<SynonymGroups, string>();

function synonymsDigest(groups: SynonymGroups): string {
  let digest = digests.get(groups);
  if (digest === undefined) {
    digest = sha256(JSON.stringify(groups));
    digests.set(groups, digest);
  }
  return digest;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
