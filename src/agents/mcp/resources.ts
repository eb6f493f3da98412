/**
 * Knowledge bases and their records as MCP resources (docs/agent-surfaces.md, "Resources"):
 *
 *   groundwork://kb/{ragId}                      a knowledge base (application/json, as get_knowledge_base)
 *   groundwork://kb/{ragId}/records/{recordId}   one record (text/plain: its title, then its text)
 *
 * A URI scheme of our own, not the API's https URLs: an MCP access token is for `/api/mcp` only, so a
 * client could not fetch the https URL with it, and MCP says https is for resources the client can
 * fetch from the web itself. `resources/list` pages through the caller's knowledge bases, each
 * followed by its records; reading needs `kb:read` and reaches only what the account reaches (the
 * same owner check as the tools), anything else is "Resource not found" (-32002), whether it exists
 * or not. The list does not change during a request, so neither `listChanged` nor `subscribe` is
 * offered.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '../../errors.js';
import type { KnowledgeBase, KnowledgeRecord } from '../../knowledge/model.js';
import type { McpCaller, McpServices } from './context.js';
import { knowledgeBaseView } from './kb-tools.js';

export const kbUriTemplate = 'groundwork://kb/{ragId}';
export const recordUriTemplate = 'groundwork://kb/{ragId}/records/{recordId}';
/** MCP's "Resource not found" (server/resources, Error Handling). */
export const resourceNotFound = -32002;

const pageSize = 50;
const recordsPerRead = 100;
const segment = '[A-Za-z0-9_-]{1,64}';
const uriPattern = new RegExp(`^groundwork://kb/(${segment})(?:/records/(${segment}))?$`);

export const kbUri = (ragId: string) => `groundwork://kb/${ragId}`;
export const recordUri = (ragId: string, recordId: string) => `${kbUri(ragId)}/records/${recordId}`;

/** The knowledge base and record a resource URI names, or undefined for a URI that is not ours. */
export function parseResourceUri(uri: string): { ragId: string; recordId?: string } | undefined {
  const match = uriPattern.exec(uri);
  if (!match) return undefined;
  return match[2] ? { ragId: match[1] as string, recordId: match[2] } : { ragId: match[1] as string };
}

/** Where a `resources/list` page starts: the i-th knowledge base, whether it was listed, and the cursor into its records. */
interface ListPosition {
  i: number;
  listed: boolean;
  records?: string | undefined;
}

function encodePosition(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.i, position.listed ? 1 : 0, position.records ?? '']), 'utf8').toString('base64url');
}

function decodePosition(cursor: string | undefined): ListPosition {
  if (cursor === undefined) return { i: 0, listed: false };
  try {
    const [i, listed, records] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(i) && (i as number) >= 0 && (listed === 0 || listed === 1) && typeof records === 'string' && records.length <= 200) {
      return { i: i as number, listed: listed === 1, records: records || undefined };
    }
  } catch {
    // not one of ours
  }
  throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: pass nextCursor of the previous page unchanged.');
}

function recordTitle(record: KnowledgeRecord): string {
  const title = record.title ?? record.text.replace(/\s+/g, ' ').trim();
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}

export function registerResources(server: McpServer, caller: McpCaller, services: McpServices): void {
  const { knowledge } = services;
  const account = caller.accountId;
  const low = server.server;
  low.registerCapabilities({ resources: {} });

  /** Read access (the HTTP pre-check refuses these methods with 403 already; this is the second line). */
  const needRead = () => {
    if (!caller.scopes.has('kb:read')) throw new McpError(ErrorCode.InvalidRequest, 'forbidden: this access token lacks the kb:read scope.');
  };
  const notFound = (uri: string) => new McpError(resourceNotFound, 'Resource not found', { uri });

  const kbResource = (kb: KnowledgeBase): Resource => ({
    uri: kbUri(kb.ragId),
    name: kb.ragId,
    title: kb.botName,
    description: `Knowledge base "${kb.botName}" with ${kb.recordCount} record${kb.recordCount === 1 ? '' : 's'}.`,
    mimeType: 'application/json',
  });
  const recordResource = (record: KnowledgeRecord): Resource => ({
    uri: recordUri(record.ragId, record.recordId),
    name: record.recordId,
    title: recordTitle(record),
    mimeType: 'text/plain',
    size: new TextEncoder().encode(recordText(record)).byteLength,
  });

  low.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    needRead();
    const position = decodePosition(request.params?.cursor);
    const kbs = await knowledge.list(account);
    const resources: Resource[] = [];
    while (resources.length < pageSize && position.i < kbs.length) {
      const kb = kbs[position.i] as KnowledgeBase;
      if (!position.listed) {
        resources.push(kbResource(kb));
        position.listed = true;
        continue;
      }
      const page = await knowledge.listRecords(account, kb.ragId, { limit: pageSize - resources.length, cursor: position.records }).catch((error: unknown) => {
        // Deleted between two pages: go on with the next knowledge base.
        if (isDomainError(error) && error.code === 'not_found') return { items: [], nextCursor: null };
        throw error;
      });
      resources.push(...page.items.map(recordResource));
      if (page.nextCursor) position.records = page.nextCursor;
      else Object.assign(position, { i: position.i + 1, listed: false, records: undefined });
    }
    return { resources, ...(position.i < kbs.length ? { nextCursor: encodePosition(position) } : {}) };
  });

  low.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: kbUriTemplate,
        name: 'knowledge-base',
        title: 'Knowledge base',
        description: 'A knowledge base of this account: name, description, fallback message, record count and free record slots.',
        mimeType: 'application/json',
      },
      {
        uriTemplate: recordUriTemplate,
        name: 'record',
        title: 'Record',
        description: 'One record of a knowledge base: its title (if any) on the first line, then its text.',
        mimeType: 'text/plain',
      },
    ],
  }));

  low.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    needRead();
    const { uri } = request.params;
    const target = parseResourceUri(uri);
    if (!target) throw notFound(uri);
    try {
      if (target.recordId === undefined) {
        const kb = await knowledge.get(account, target.ragId);
        const body = { ...knowledgeBaseView(knowledge, kb), records: recordUri(kb.ragId, '{recordId}') };
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
      }
      const record = await findRecord(target.ragId, target.recordId);
      if (!record) throw notFound(uri);
      return { contents: [{ uri, mimeType: 'text/plain', text: recordText(record) }] };
    } catch (error) {
      if (isDomainError(error) && error.code === 'not_found') throw notFound(uri);
      throw error;
    }
  });

  /**
   * The record, looked up through the knowledge base's record pages (the knowledge service has no
   * single-record read; a knowledge base holds at most MAX_RECORDS_PER_KB records, 25 on the free
   * plan, so this is one page read in practice).
   */
  async function findRecord(ragId: string, recordId: string): Promise<KnowledgeRecord | undefined> {
    let cursor: string | undefined;
    do {
      const page = await knowledge.listRecords(account, ragId, { limit: recordsPerRead, cursor });
      const hit = page.items.find((record) => record.recordId === recordId);
      if (hit) return hit;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return undefined;
  }
}

function recordText(record: KnowledgeRecord): string {
  return record.title ? `${record.title}\n\n${record.text}` : record.text;
}
