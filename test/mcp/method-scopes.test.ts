/** The scope check the MCP route makes before the server runs (src/agents/mcp/auth.ts). */
import { describe, expect, it } from 'vitest';
import { missingToolScope } from '../../src/agents/mcp/auth.js';
import type { Scope } from '../../src/identity/principal.js';

const scopes = (...list: Scope[]) => new Set<Scope>(list);
const rpc = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method, params });

describe('missingToolScope', () => {
  it('asks kb:read for reading resources, nothing for templates, prompts or completion', () => {
    expect(missingToolScope(rpc('resources/list'), scopes('tools:run'))).toBe('kb:read');
    expect(missingToolScope(rpc('resources/read', { uri: 'groundwork://kb/kb_1' }), scopes('kb:write'))).toBe('kb:read');
    expect(missingToolScope(rpc('resources/read', { uri: 'groundwork://kb/kb_1' }), scopes('kb:read'))).toBeUndefined();
    for (const method of ['resources/templates/list', 'prompts/list', 'prompts/get', 'completion/complete', 'logging/setLevel', 'ping']) {
      expect(missingToolScope(rpc(method), scopes()), method).toBeUndefined();
    }
  });

  it('checks tools by their own scope and treats inherited names as unknown tools', () => {
    expect(missingToolScope(rpc('tools/call', { name: 'create_knowledge_base' }), scopes('kb:read'))).toBe('kb:write');
    expect(missingToolScope(rpc('tools/call', { name: 'list_utilities' }), scopes())).toBeUndefined();
    for (const name of ['constructor', 'toString', '__proto__']) expect(missingToolScope(rpc('tools/call', { name }), scopes()), name).toBeUndefined();
    expect(missingToolScope(rpc('constructor'), scopes())).toBeUndefined();
  });
});
