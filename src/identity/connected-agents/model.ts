/**
 * What a person sees of the agents connected to their account (issue 15, item 7): the OAuth
 * clients holding grants for it, the account API keys those grants carry, and the anonymous
 * agents the person adopted. Only live grants are shown: not revoked, and still holding a
 * credential that works (an account key, an unexpired refresh token, or access tokens young
 * enough to be valid). Secrets never appear: a key is shown by its prefix.
 */
import type { AgentAccess, ClientKind, Grant, GrantKind } from '../oauth/model.js';

/** The kinds of long-lived credential a grant can hold besides its short access tokens. */
export type GrantCredentialKind = 'refresh_token' | 'account_key';

/** A live grant as the store reads it, with what the dashboard shows about its client and credentials. */
export interface ConnectedGrantRow {
  grant: Grant;
  client: { clientId: string; kind: ClientKind; name: string | null; registeredAt: string };
  /** The grant's account API key, if it was issued one (a claim with credential_type api_key). */
  accountKey: { keyId: string; prefix: string; createdAt: string } | null;
  /** Whether it holds a refresh token that is neither exchanged nor expired. */
  hasRefreshToken: boolean;
  /** The latest exchange of one of its refresh tokens (a refresh is a use). */
  lastRefreshedAt: string | null;
}

/** An anonymous agent the person took ownership of on the claim page. */
export interface AdoptedAgentRow {
  clientId: string;
  clientName: string | null;
  access: AgentAccess;
  adoptedAt: string;
  registeredAt: string;
}

export interface GrantSummary {
  grantId: string;
  kind: GrantKind;
  scope: string;
  resources: string[];
  createdAt: string;
  /** The later of the last presented credential (to within a minute) and the last refresh; null if never used. */
  lastUsedAt: string | null;
  credentials: GrantCredentialKind[];
}

export interface ConnectedClient {
  clientId: string;
  clientName: string | null;
  kind: ClientKind;
  registeredAt: string;
  grants: GrantSummary[];
}

export interface ConnectedAccountKey {
  keyId: string;
  prefix: string;
  clientId: string;
  clientName: string | null;
  grantId: string;
  scope: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Held by an agent the person adopted (its grant is on the agent's own account when it kept only what it made). */
  adoptedAgent: boolean;
}

export interface AdoptedAgent extends AdoptedAgentRow {
  /** Its live grants; empty once revoked (it stays listed: its knowledge bases are still the person's). */
  grants: GrantSummary[];
}

export interface ConnectedAgents {
  clients: ConnectedClient[];
  accountKeys: ConnectedAccountKey[];
  adoptedAgents: AdoptedAgent[];
}
