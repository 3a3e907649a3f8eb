/**
 * The session rule: a session is a run of activity (tracked events, the page shown) without a gap
 * of more than `timeoutMs` (30 minutes). The session state is stored, so a reload or a new tab
 * within the window continues the session. A session ends at its last activity: its
 * gd_end_session is emitted when the next activity finds it stale, or by the periodic check.
 */
export const SESSION_TIMEOUT_MS = 30 * 60 * 1000;

export interface SessionState {
  id: string;
  /** Epoch ms of the last activity. */
  lastAt: number;
  /** False once the end was emitted; the next activity starts a new session. */
  open: boolean;
}

export interface SessionChange {
  state: SessionState;
  end?: { id: string; at: number };
  start?: { id: string; at: number };
}

/** Activity at `now`: continues the open session, or ends the stale one and starts a new one. */
export function touchSession(state: SessionState | null, now: number, newId: () => string, timeoutMs = SESSION_TIMEOUT_MS): SessionChange {
  if (state?.open && now - state.lastAt <= timeoutMs) return { state: { ...state, lastAt: Math.max(state.lastAt, now) } };
  const { end } = expireSession(state, Number.POSITIVE_INFINITY, 0);
  const id = newId();
  return { state: { id, lastAt: now, open: true }, start: { id, at: now }, ...(end ? { end } : {}) };
}

/** The periodic check: an open session idle for longer than `timeoutMs` ends at its last activity. */
export function expireSession(state: SessionState | null, now: number, timeoutMs = SESSION_TIMEOUT_MS): { state: SessionState | null; end?: { id: string; at: number } } {
  if (!state?.open || now - state.lastAt <= timeoutMs) return { state };
  return { state: { ...state, open: false }, end: { id: state.id, at: state.lastAt } };
}

/** Reads a stored session state; null when absent or malformed. */
export function parseSession(raw: string | null): SessionState | null {
  try {
    const value = JSON.parse(raw ?? 'null') as Partial<SessionState> | null;
    return typeof value?.id === 'string' && typeof value.lastAt === 'number' && typeof value.open === 'boolean'
      ? { id: value.id, lastAt: value.lastAt, open: value.open } : null;
  } catch {
    return null;
  }
}
