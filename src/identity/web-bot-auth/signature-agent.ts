/**
 * The `Signature-Agent` header: where a bot's keys are published.
 * Current form: an SF dictionary, `sig1="https://agent.example"`, each member
 * an sf-string URL with an optional `;type=directory|jwks_uri|cimd`. Legacy
 * form: one bare sf-string, `"https://agent.example"` (a directory).
 */
import { parseDictionary, parseItem, Token } from 'structured-headers';
import { BotAuthError } from './errors.js';

export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

export type AgentType = 'directory' | 'jwks_uri' | 'cimd';

export interface AgentEntry {
  /** The URL as the bot sent it; this is how the bot is named in logs and in `request.bot.agent`. */
  uri: string;
  type: AgentType;
}

export type SignatureAgentHeader = { form: 'dictionary'; members: Map<string, AgentEntry> } | { form: 'legacy'; entry: AgentEntry };

function malformed(message: string): never {
  throw new BotAuthError('malformed', `Signature-Agent ${message}`);
}

function entryOf(value: unknown, params: Map<string, unknown>): AgentEntry {
  if (typeof value !== 'string') return malformed('members must be quoted URLs');
  const rawType = params.get('type');
  const type = rawType === undefined ? 'directory' : rawType instanceof Token || typeof rawType === 'string' ? rawType.toString() : '';
  if (type !== 'directory' && type !== 'jwks_uri' && type !== 'cimd') return malformed(`type "${type}" is not supported`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return malformed('must hold an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return malformed('must be an http(s) URL');
  return { uri: value, type };
}

export function parseSignatureAgent(value: string): SignatureAgentHeader {
  const trimmed = value.trim();
  if (trimmed.length > 2048) return malformed('is too long');
  try {
    if (trimmed.startsWith('"')) {
      const [item, params] = parseItem(trimmed);
      return { form: 'legacy', entry: entryOf(item, params) };
    }
    const dictionary = parseDictionary(trimmed);
    if (dictionary.size === 0) return malformed('is empty');
    const members = new Map<string, AgentEntry>();
    for (const [key, member] of dictionary) {
      if (Array.isArray(member[0])) return malformed('members must be quoted URLs, not lists');
      members.set(key, entryOf(member[0], member[1]));
    }
    return { form: 'dictionary', members };
  } catch (err) {
    if (err instanceof BotAuthError) throw err;
    return malformed('is not a structured-field dictionary or string');
  }
}

/**
 * The URL to fetch for an agent: a `directory` named by its origin alone
 * (`https://agent.example` or `…/`) means the well-known directory there;
 * any other URL is fetched as is.
 */
export function discoveryUrl(entry: AgentEntry): URL {
  const url = new URL(entry.uri);
  url.hash = '';
  if (entry.type === 'directory' && (url.pathname === '/' || url.pathname === '') && url.search === '') url.pathname = DIRECTORY_PATH;
  return url;
}
