/**
 * Where the authorization and token endpoints look a client up: a client_id that is an http(s)
 * URL names a Client ID Metadata Document (client-id-documents.ts); any other is a registered
 * client in the store (ids of at most 200 characters).
 */
import type { OAuthStore } from '../../ports/storage.js';
import { looksLikeClientIdUrl } from './client-id-document.js';
import type { ClientIdDocuments } from './client-id-documents.js';
import type { OAuthClient } from './model.js';

export type ClientLookup = Pick<OAuthStore, 'getClient'>;

export class ClientDirectory implements ClientLookup {
  constructor(
    private readonly store: ClientLookup,
    private readonly documents: ClientIdDocuments,
  ) {}

  /** Undefined for an unknown registered client; throws OAuthError for an unusable metadata document. */
  async getClient(clientId: string): Promise<OAuthClient | undefined> {
    if (looksLikeClientIdUrl(clientId)) return this.documents.client(clientId);
    return clientId.length <= 200 ? this.store.getClient(clientId) : undefined;
  }
}
