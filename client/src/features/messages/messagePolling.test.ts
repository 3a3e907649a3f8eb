import { describe, expect, it } from 'vitest';
import { LIVE_POLL_MS, ON_ITS_WAY, POLL_MS, messagePollMs } from './messagePolling.ts';

describe('messagePollMs', () => {
  it('polls fast while the message runs', () => {
    for (const s of ['Scheduled', 'Processing', 'Ready', 'Sending', 'Active']) expect(messagePollMs(s)).toBe(LIVE_POLL_MS);
  });
  it('polls slowly when approved but not running', () => {
    for (const s of ['Approved', 'Paused', 'Finished']) expect(messagePollMs(s)).toBe(POLL_MS);
  });
  it('does not poll drafts', () => {
    expect(messagePollMs('Draft')).toBeNull();
    expect(messagePollMs('To validate')).toBeNull();
  });
  it('polls a draft slowly while a test send is on its way', () => {
    expect(messagePollMs('Draft', true)).toBe(POLL_MS);
  });
});

describe('ON_ITS_WAY', () => {
  it('is every approved status but Approved', () => {
    expect([...ON_ITS_WAY].sort()).toEqual(['Active', 'Finished', 'Paused', 'Processing', 'Ready', 'Scheduled', 'Sending']);
  });
});
