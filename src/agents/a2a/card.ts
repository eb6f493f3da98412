/**
 * The A2A agent card (A2A v1.0, spec §8; standards.md §5) at
 * `/.well-known/agent-card.json`, in the protocol's JSON form. It lists the
 * one JSON-RPC endpoint for protocol 1.0 (and the same URL for 0.3 clients),
 * streaming, and the truth about authorization: a bearer access token (or
 * account key) for the management API's resource `{PUBLIC_URL}/api/v1` —
 * the default audience of our authorization server — with scope `kb:read`.
 * A2A 0.3 callers get the same agent in the 0.3 form (agentCardJsonV03).
 */
export const a2aPath = '/api/v1/a2a';
export const agentCardPath = '/.well-known/agent-card.json';
export const agentVersion = '1.0.0';
const modes = ['text/plain', 'application/json'];
const oauthDescription = 'OAuth 2.1 with PKCE (S256); the client-credentials and ID-JAG grants are also accepted at the token endpoint.';

/** The authorization-code flow both card versions describe (the 1.0 card adds `pkceRequired`). */
function authorizationCodeFlow(publicUrl: string) {
  return {
    authorizationUrl: `${publicUrl}/oauth/authorize`,
    tokenUrl: `${publicUrl}/oauth/token`,
    refreshUrl: `${publicUrl}/oauth/token`,
    scopes: { 'kb:read': 'Ask and search your knowledge bases' },
  };
}

export function agentCardJson(publicUrl: string): Record<string, unknown> {
  const url = `${publicUrl}${a2aPath}`;
  return {
    name: 'Groundwork',
    description:
      'Answers questions from a Groundwork knowledge base, only from its records, with numbered citations. ' +
      'Name the knowledge base in every message: a data part {"ragId": "kb_…"}, message metadata "ragId", or a first text line "ragId: kb_…".',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Groundwork', url: publicUrl },
    version: agentVersion,
    documentationUrl: `${publicUrl}/docs`,
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: {
      bearer: {
        httpAuthSecurityScheme: {
          scheme: 'Bearer',
          bearerFormat: 'JWT',
          description: `An access token for the resource ${publicUrl}/api/v1 (the default audience; claimed agent tokens qualify) or an account API key, with scope kb:read. Register at ${publicUrl}/oauth/register and claim at ${publicUrl}/oauth/claim.`,
        },
      },
      oauth2: {
        oauth2SecurityScheme: {
          description: oauthDescription,
          flows: { authorizationCode: { ...authorizationCodeFlow(publicUrl), pkceRequired: true } },
          oauth2MetadataUrl: `${publicUrl}/.well-known/oauth-authorization-server`,
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: ['kb:read'] } } }, { schemes: { oauth2: { list: ['kb:read'] } } }],
    defaultInputModes: modes,
    defaultOutputModes: modes,
    skills: [
      {
        id: 'answer-from-knowledge-base',
        name: 'Answer from a knowledge base',
        description:
          'Answers a question from the records of one of your knowledge bases and cites them ([n] refers to the n-th source). ' +
          'Says plainly when the records do not cover the question. Streams the answer when asked to.',
        tags: ['rag', 'question answering', 'citations', 'knowledge base', 'faq'],
        examples: ['ragId: kb_123\nWhat are your opening hours?'],
        inputModes: modes,
        outputModes: modes,
      },
    ],
  };
}

/**
 * The same agent as an A2A 0.3 card (the 0.3 JSON schema): one `url` with its
 * `preferredTransport`, the same endpoint in `additionalInterfaces`,
 * `protocolVersion` "0.3.0", and security schemes in the 0.3 form (`type`
 * discriminator, `security` as a list of scheme → scopes maps). Served to
 * callers that ask for 0.3 or send no A2A-Version (see agentCardVersion).
 */
export function agentCardJsonV03(publicUrl: string): Record<string, unknown> {
  const url = `${publicUrl}${a2aPath}`;
  const card = agentCardJson(publicUrl);
  return {
    protocolVersion: '0.3.0',
    name: card.name,
    description: card.description,
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    provider: card.provider,
    version: agentVersion,
    documentationUrl: card.documentationUrl,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'Bearer',
        bearerFormat: 'JWT',
        description: `An access token for the resource ${publicUrl}/api/v1 or an account API key, with scope kb:read. Register at ${publicUrl}/oauth/register and claim at ${publicUrl}/oauth/claim.`,
      },
      oauth2: {
        type: 'oauth2',
        description: oauthDescription,
        flows: { authorizationCode: authorizationCodeFlow(publicUrl) },
        oauth2MetadataUrl: `${publicUrl}/.well-known/oauth-authorization-server`,
      },
    },
    security: [{ bearer: ['kb:read'] }, { oauth2: ['kb:read'] }],
    defaultInputModes: modes,
    defaultOutputModes: modes,
    skills: card.skills,
    supportsAuthenticatedExtendedCard: false,
  };
}

export type AgentCardVersion = '0.3' | '1.0';

/**
 * Which card a caller gets, from its `A2A-Version` header: none (or empty) and any 0.x → 0.3,
 * the rule A2A 1.0 gives for requests without the header, and what the 0.3 SDK sends (nothing);
 * 1.x and later → 1.0 (the 1.x SDK sends `A2A-Version: 1.0` when it reads the card).
 */
export function agentCardVersion(header: string | string[] | undefined): AgentCardVersion {
  const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (value === '' || /^0(\.|$)/.test(value)) return '0.3';
  return '1.0';
}
