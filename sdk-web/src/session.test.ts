import { describe, expect, it } from 'vitest';
import { SESSION_TIMEOUT_MS, expireSession, parseSession, touchSession } from './session.ts';

const MIN = 60_000;
let n = 0;
const newId = () => `s${++n}`;

describe('session rule', () => {
  it('starts a session on the first activity', () => {
    const change = touchSession(null, 1000, () => 'a');
    expect(change).toEqual({ state: { id: 'a', lastAt: 1000, open: true }, start: { id: 'a', at: 1000 } });
  });

  it('continues within 30 minutes of the last activity, and each activity extends it', () => {
    let state = touchSession(null, 0, () => 'a').state;
    for (let i = 1; i <= 5; i++) {
      const change = touchSession(state, i * 29 * MIN, newId);
      expect(change.start).toBeUndefined();
      expect(change.end).toBeUndefined();
      state = change.state;
    }
    expect(state).toEqual({ id: 'a', lastAt: 5 * 29 * MIN, open: true });
    expect(touchSession(state, state.lastAt + SESSION_TIMEOUT_MS, newId).start).toBeUndefined();
  });

  it('after more than 30 minutes of inactivity, ends the old session at its last activity and starts a new one', () => {
    const state = { id: 'a', lastAt: 10 * MIN, open: true };
    const change = touchSession(state, 10 * MIN + SESSION_TIMEOUT_MS + 1, () => 'b');
    expect(change.end).toEqual({ id: 'a', at: 10 * MIN });
    expect(change.start).toEqual({ id: 'b', at: 10 * MIN + SESSION_TIMEOUT_MS + 1 });
    expect(change.state).toEqual({ id: 'b', lastAt: 10 * MIN + SESSION_TIMEOUT_MS + 1, open: true });
  });

  it('an activity earlier than the last one (a late event) keeps the session and its last activity', () => {
    const change = touchSession({ id: 'a', lastAt: 50 * MIN, open: true }, 5 * MIN, newId);
    expect(change).toEqual({ state: { id: 'a', lastAt: 50 * MIN, open: true } });
  });

  it('the periodic check ends an idle session once, and the next activity starts a new one without a second end', () => {
    const state = { id: 'a', lastAt: 0, open: true };
    expect(expireSession(state, SESSION_TIMEOUT_MS).end).toBeUndefined();
    const expired = expireSession(state, SESSION_TIMEOUT_MS + 1);
    expect(expired).toEqual({ state: { id: 'a', lastAt: 0, open: false }, end: { id: 'a', at: 0 } });
    expect(expireSession(expired.state, 10 * SESSION_TIMEOUT_MS).end).toBeUndefined();
    const next = touchSession(expired.state, SESSION_TIMEOUT_MS + 2, () => 'b');
    expect(next.end).toBeUndefined();
    expect(next.start).toEqual({ id: 'b', at: SESSION_TIMEOUT_MS + 2 });
  });

  it('honours a custom timeout', () => {
    const state = { id: 'a', lastAt: 0, open: true };
    expect(touchSession(state, 2 * MIN, newId, MIN).end).toEqual({ id: 'a', at: 0 });
  });

  it('reads a stored state, ignoring malformed ones', () => {
    expect(parseSession(JSON.stringify({ id: 'a', lastAt: 5, open: true }))).toEqual({ id: 'a', lastAt: 5, open: true });
    expect(parseSession(null)).toBeNull();
    expect(parseSession('{')).toBeNull();
    expect(parseSession(JSON.stringify({ id: 'a' }))).toBeNull();
  });
});
