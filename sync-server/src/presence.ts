/**
 * Presence (awareness) comes from the authenticated user, never from what a client claims: the
 * `user` field is overwritten from the connection's context; read-only connections publish no
 * presence at all; a connection cannot write the presence of a client id another connection owns.
 */
import type { SyncContext } from './auth.ts';

export interface PresenceUser { id: string; name: string; color: string }

type States = Map<number, Record<string, unknown>>;

/**
 * Rewrites, in place, the decoded awareness states one connection sent. `ownedByOthers` tells
 * whether another connection on the document already owns a client id.
 */
export function rewritePresence(states: States, context: SyncContext, ownedByOthers: (clientId: number) => boolean): void {
  if (context.readOnly) {
    states.clear();
    return;
  }
  const user: PresenceUser = { id: context.userId, name: context.name, color: context.color };
  for (const [clientId, state] of [...states]) {
    if (ownedByOthers(clientId)) {
      states.delete(clientId);
    } else if (typeof state === 'object' && state !== null && !Array.isArray(state)) {
      state.user = { ...user };
    } else {
      states.set(clientId, { user: { ...user } });
    }
  }
}
