/**
 * The message lifecycle (lifecycle.ts) over random statuses, actions, pipeline events, grants and
 * owners:
 * - no action and no pipeline event leaves Deleted;
 * - play applies only where an approved version exists, and every status that runs got there
 *   through play (random walks from Draft never reach a running status without it);
 * - approval: only the policy's count of distinct approvers moves To validate to Approved, an
 *   author approves their own message only when the policy says so, and one approver counts once;
 * - every transition needs its permission: without the action's key (and its owner variant) nobody
 *   may act; with the key, exactly the statuses the table lists allow it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { disallowedFor, subjectFor } from '../permissions/can.ts';
import { PERMISSION_KEYS, ownerVariant } from '../permissions/keys.ts';
import {
  ACTION_FROM, ACTION_PERMISSION, APPROVED_STATUSES, COMMUNICATION_STATUSES, MESSAGE_ACTIONS, RUNNING_STATUSES, SystemEvent,
  actionsIn, afterSystemEvent, approvalOutcome, mayAct, nextStatus, type CommunicationStatus,
} from './lifecycle.ts';

const status = fc.constantFrom(...COMMUNICATION_STATUSES);
const action = fc.constantFrom(...MESSAGE_ACTIONS);
const event = fc.constantFrom(...SystemEvent.options);
const context = fc.record({ startsInFuture: fc.boolean(), policyMet: fc.boolean() });
/** A step of a message's life: a person's action or the pipeline's event. */
const step = fc.oneof(
  fc.record({ action, ctx: context }).map((s) => ({ kind: 'action' as const, ...s })),
  fc.record({ event, staysLive: fc.boolean() }).map((s) => ({ kind: 'event' as const, ...s })),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function walk(from: CommunicationStatus, steps: Step[]): { status: CommunicationStatus; played: boolean } {
  let current = from;
  let played = false;
  for (const s of steps) {
    if (s.kind === 'action') {
      const t = nextStatus(current, s.action, s.ctx);
      if (!t.ok) continue;
      if (s.action === 'play') played = true;
      current = t.to;
    } else {
      current = afterSystemEvent(current, s.event, { staysLive: s.staysLive }) ?? current;
    }
  }
  return { status: current, played };
}

describe('message lifecycle', () => {
  it('no action and no pipeline event leaves Deleted', () => {
    fc.assert(fc.property(action, context, event, fc.boolean(), (a, ctx, e, staysLive) => {
      expect(nextStatus('Deleted', a, ctx)).toEqual({ ok: false, reason: 'not_allowed_in_status' });
      expect(afterSystemEvent('Deleted', e, { staysLive })).toBeNull();
    }));
    expect(actionsIn('Deleted')).toEqual([]);
    fc.assert(fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      expect(walk('Deleted', steps).status).toBe('Deleted');
    }));
  });

  it('play applies only where an approved version exists, and nothing runs without it', () => {
    fc.assert(fc.property(status, context, (from, ctx) => {
      const t = nextStatus(from, 'play', ctx);
      expect(t.ok).toBe(from === 'Approved' || from === 'Paused');
      if (t.ok) expect(APPROVED_STATUSES).toContain(from);
    }));
    // A message's whole life from Draft: running statuses, Paused and Finished need a play first.
    fc.assert(fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      const { status: end, played } = walk('Draft', steps);
      if ([...RUNNING_STATUSES, 'Paused', 'Finished'].includes(end)) expect(played).toBe(true);
    }), { numRuns: 2000 });
  });

  it('approve reaches Approved only when the policy is met; reject and draft go back to Draft', () => {
    expect(nextStatus('To validate', 'approve', { policyMet: false })).toEqual({ ok: true, to: 'To validate' });
    expect(nextStatus('To validate', 'approve', { policyMet: true })).toEqual({ ok: true, to: 'Approved' });
    expect(nextStatus('To validate', 'reject')).toEqual({ ok: true, to: 'Draft' });
    expect(nextStatus('Approved', 'toValidate')).toEqual({ ok: true, to: 'To validate' });
    expect(nextStatus('Draft', 'submit')).toEqual({ ok: true, to: 'To validate' });
    expect(nextStatus('Draft', 'approve').ok).toBe(false);
    expect(nextStatus('Sending', 'delete').ok).toBe(false);
    expect(nextStatus('Approved', 'play', { startsInFuture: true })).toEqual({ ok: true, to: 'Scheduled' });
    expect(nextStatus('Draft', 'test')).toEqual({ ok: true, to: 'Testing' });
    expect(afterSystemEvent('Testing', 'testDone')).toBe('Draft');
    expect(afterSystemEvent('Sending', 'sendDone', { staysLive: true })).toBe('Active');
    expect(afterSystemEvent('Sending', 'sendDone', { staysLive: false })).toBe('Finished');
  });

  it('approvals: the policy count of distinct approvers, own approval only when allowed', () => {
    const people = fc.constantFrom('author', 'a', 'b', 'c', 'd');
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.array(people, { maxLength: 12 }),
      (required, authorsMayApprove, attempts) => {
        const policy = { required, authorsMayApprove };
        const approvedBy: string[] = [];
        let met = false;
        for (const approverId of attempts) {
          const outcome = approvalOutcome(policy, { authorIds: ['author'], approverId, approvedBy });
          if (approverId === 'author' && !authorsMayApprove) {
            expect(outcome).toEqual({ ok: false, reason: 'own_message' });
            continue;
          }
          if (approvedBy.includes(approverId)) {
            expect(outcome).toEqual({ ok: false, reason: 'already_approved' });
            continue;
          }
          if (!outcome.ok) throw new Error('refused a first approval');
          approvedBy.push(approverId);
          expect(outcome.count).toBe(approvedBy.length);
          expect(outcome.met).toBe(approvedBy.length >= required);
          met ||= outcome.met;
        }
        const eligible = new Set(attempts.filter((p) => authorsMayApprove || p !== 'author'));
        expect(met).toBe(eligible.size >= required);
      },
    ));
  });

  it('every transition needs its permission; with it, exactly the statuses of the table allow it', () => {
    const grants = fc.uniqueArray(fc.constantFrom(...PERMISSION_KEYS), { maxLength: 60 });
    const owner = fc.constantFrom<string | null>('me', 'someone-else', null);
    fc.assert(fc.property(grants, action, status, owner, (granted, a, from, ownerId) => {
      const subject = subjectFor('me', disallowedFor(granted));
      const key = ACTION_PERMISSION[a];
      const ownerKey = ownerVariant(key);
      const holds = granted.includes(key) || (ownerKey !== undefined && ownerId === 'me' && granted.includes(ownerKey));
      expect(mayAct(subject, a, from, ownerId)).toBe(holds && ACTION_FROM[a].includes(from));
    }), { numRuns: 3000 });
  });

  it('every action applies somewhere and its key is in the catalogue', () => {
    for (const a of MESSAGE_ACTIONS) {
      expect(ACTION_FROM[a].length, a).toBeGreaterThan(0);
      expect(PERMISSION_KEYS, a).toContain(ACTION_PERMISSION[a]);
    }
    const offered = (s: CommunicationStatus) => actionsIn(s);
    expect(offered('Draft')).toEqual(expect.arrayContaining(['submit', 'test', 'delete', 'clone', 'assign', 'edit']));
    expect(offered('Sending')).toEqual(['pause', 'clone', 'assign', 'edit']);
  });
});
