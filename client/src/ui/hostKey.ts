/**
 * The SFTP host key of a form (an SFTP import source, a report's SFTP target): where it stands and
 * what to send. Pure, shared by both forms (tested in formModel.test.ts and reportForm.test.ts).
 *
 * The pinned fingerprint is shown read-only with the server it was pinned for; the user may forget
 * it (sent as null: the next connection pins the key it meets) or type one (in advance, or to
 * replace the pinned one). With nothing typed and nothing forgotten no fingerprint is sent: the
 * server keeps the pinned one, or forgets it when the host or port changed.
 */

/**
 * - `given`: a fingerprint is typed in; it is pinned on saving;
 * - `pinned`: the pinned key is kept; the server must present it;
 * - `forgotten`: the user forgot it; the next connection pins the key it meets;
 * - `serverChanged`: the host or port changed, so saving forgets the pinned key (another server's
 *   key is not this one's), unless one is typed;
 * - `firstUse`: none pinned; the first connection pins the key it meets (trust on first use).
 */
export type HostKeyState = 'given' | 'pinned' | 'forgotten' | 'serverChanged' | 'firstUse';

export interface PinnedHostKey { fingerprint: string; host: string; port: number }

export interface HostKeyValues {
  host: string;
  port: number | string;
  /** Typed in (empty: none). */
  hostKeyFingerprint: string;
  forgetHostKey: boolean;
  pinnedHostKey: Pick<PinnedHostKey, 'host' | 'port'> | null;
}

export function hostKeyState(v: HostKeyValues): HostKeyState {
  if (v.hostKeyFingerprint.trim()) return 'given';
  if (!v.pinnedHostKey) return 'firstUse';
  if (v.forgetHostKey) return 'forgotten';
  const sameServer = v.host.trim().toLowerCase() === v.pinnedHostKey.host.toLowerCase() && Number(v.port) === v.pinnedHostKey.port;
  return sameServer ? 'pinned' : 'serverChanged';
}

/** The fingerprint to send: the typed one, null to forget the pinned one, or undefined (none sent). */
export function hostKeyField(state: HostKeyState, typed: string): string | null | undefined {
  return state === 'given' ? typed.trim() : state === 'forgotten' ? null : undefined;
}
