/** Who is calling the management API, however they authenticated. */
export type Scope = 'kb:read' | 'kb:write' | 'tools:run';

export const allScopes: readonly Scope[] = ['kb:read', 'kb:write', 'tools:run'];

export interface Principal {
  accountId: string;
  via: 'session' | 'bearer';
  scopes: ReadonlySet<Scope>;
}

/**
 * Resolves an `Authorization: Bearer` credential (access token or account API
 * key) to a principal; undefined when it does not recognise the credential.
 * The identity feature supplies these; the HTTP layer only asks them in turn.
 */
export type BearerVerifier = (credential: string) => Promise<Principal | undefined>;
