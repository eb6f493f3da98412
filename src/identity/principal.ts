/** Who is calling the management API, however they authenticated. */
export type Scope = 'kb:read' | 'kb:write' | 'tools:run';

export const allScopes: readonly Scope[] = ['kb:read', 'kb:write', 'tools:run'];

export interface Principal {
  /**
   * The acting account. For an agent a person adopted with access only to what it made, this is
   * still the agent's own account: it owns nothing itself and reaches only the knowledge bases it
   * made, now in the person's account. That rule lives in the storage port's owner check (one
   * predicate for knowledge bases, sources, records, keys and usage), so every surface that acts
   * for an account — this API, MCP, A2A — gets it without passing anything more than this id.
   */
  accountId: string;
  via: 'session' | 'bearer';
  scopes: ReadonlySet<Scope>;
}

