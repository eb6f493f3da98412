/**
 * "Last used" of a grant, for the person's list of connected agents, kept cheaply: the grant is
 * read on every use anyway (to see that it stands), so its recorded `lastUsedAt` is known; only
 * when that is more than a minute old is one conditional UPDATE sent. A busy agent costs at most
 * one write a minute per grant, and instances racing write once between them. Refreshes count
 * too, read from the refresh tokens themselves (see ConnectedAgentsService).
 */
import type { ConnectedAgentStore } from '../../ports/storage.js';
import type { Grant } from './model.js';

/** How precise "last used" is: at most one write per grant per this interval. */
export const lastUsedPrecisionMs = 60_000;

export class GrantUsage {
  constructor(
    private readonly store: Pick<ConnectedAgentStore, 'noteGrantUsed'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async note(grant: Pick<Grant, 'grantId' | 'lastUsedAt'>): Promise<void> {
    const at = this.now().getTime();
    const staleBefore = at - lastUsedPrecisionMs;
    if (grant.lastUsedAt !== undefined && Date.parse(grant.lastUsedAt) >= staleBefore) return;
    try {
      await this.store.noteGrantUsed(grant.grantId, new Date(at).toISOString(), new Date(staleBefore).toISOString());
    } catch {
      // Advisory only: a request the grant allows must not fail because its use could not be noted.
    }
  }
}
