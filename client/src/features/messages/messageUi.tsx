/**
 * What every message screen shares: the status badge (../../entities/message), the signed-in user's
 * permission subject (what `mayAct` needs), field paths as people read them, and the live draft of
 * a message read from its collaborative document without ever writing it.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { subjectFor, type PermissionSubject } from '@gd/shared/permissions/can';
import { messageDraftFromDoc } from '@gd/shared/docs/messageDoc';
import { decodeVersionVector, docEditedSince } from '@gd/shared/docs/stateVector';
import { createMessageDraft, type MessageDraft } from '@gd/shared/message/draft';
import { ApiError } from '../../api/errors.ts';
import { hasKey } from '../../i18n/i18n.ts';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { disallowedFor } from '../../session/scope.ts';
import { useMeta, useSession } from '../../session/store.ts';
import { useDocView, type DocViewSource } from '../../sync/docView.ts';
import { errorText } from '../../ui/errorText.ts';

/** The signed-in user's permission subject in the current app (for `mayAct`). */
export function usePermissionSubject(): PermissionSubject {
  const meta = useMeta();
  const appId = useSession((s) => s.currentAppId);
  return useMemo(() => subjectFor(meta.user.id, disallowedFor(meta, appId, 'app')), [meta, appId]);
}

/**
 * A field path (`variants.A.content.en.title`, `schedule`, `variants.0.content.en.message` from the
 * API's problems) as people read it: "Variant A · EN · Title". Field names come from the editor's
 * texts when it has them.
 */
export function fieldLabel(t: TFunction, path: string, draft?: MessageDraft): string {
  const parts = path.split('.');
  const field = (name: string) => {
    for (const key of [`messageEditor.field.${name}`, `messageEditor.section.${name}`]) if (hasKey(key)) return t(key as TKey);
    return name.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
  };
  if (parts[0] !== 'variants' || parts.length < 2) return parts.map(field).join(' · ');
  const ref = parts[1] ?? '';
  const variant = draft?.variants.find((v) => v.id === ref) ?? (/^\d+$/.test(ref) ? draft?.variants[Number(ref)] : undefined);
  // A message with one variant (not an A/B test) does not name it.
  const out = draft && draft.variants.length === 1 && variant ? [] : [t('messageEditor.variants.variant', { name: variant?.name || ref })];
  if (parts[2] === 'content') {
    if (parts[3]) out.push(parts[3].toUpperCase());
    if (parts[4]) out.push(parts.slice(4).map(field).join(' · '));
  } else if (parts[2]) {
    out.push(field(parts.slice(2).join('.')));
  }
  return out.join(' · ');
}

/** A value of a diff or a snapshot as one short line. */
export function valueText(t: TFunction, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('messages.review.empty');
  if (typeof value === 'string') return value.length > 160 ? `${value.slice(0, 157)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value);
  return json.length > 160 ? `${json.slice(0, 157)}…` : json;
}

const EMPTY_DRAFT = createMessageDraft('push');
const LIVE_DRAFT: DocViewSource<MessageDraft> = { read: messageDraftFromDoc, empty: EMPTY_DRAFT, roots: ['settings', 'languages', 'variants', 'content'] };

/** The live draft in `doc` (read-only: nothing here writes), re-read on every change. */
export function useLiveDraft(doc: Y.Doc | null): MessageDraft {
  return useDocView(doc, LIVE_DRAFT);
}

/**
 * The text of a refused lifecycle call: the route's reason (a stale submission, an author approving
 * their own message, a status that does not allow it...) as this feature words it, else the
 * catalogue's text of the code.
 */
export function lifecycleErrorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    for (const d of error.details) {
      const key = `messages.errors.${d.message}`;
      if (hasKey(key)) return t(key as TKey);
    }
    const key = `messages.errors.${error.message}`;
    if (hasKey(key)) return t(key as TKey);
  }
  return errorText(t, error);
}

/**
 * "Changed since submission", live: whether `doc` holds edits beyond the submission whose state
 * vector (base64) is `stateVector`, recomputed as the document changes, so the person who edits
 * sees it at once (as the journey editor's "edited since launch"). False without a document or vector.
 */
export function useChangedSince(doc: Y.Doc | null, stateVector: string | null): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!doc) return () => undefined;
      doc.on('update', onChange);
      return () => doc.off('update', onChange);
    },
    [doc],
  );
  const version = useMemo(() => (stateVector ? decodeVersionVector(stateVector) : null), [stateVector]);
  // A state vector is a few bytes per person who ever edited: cheap to read on every render.
  const snapshot = useCallback(() => (doc && version ? docEditedSince(doc, version) : false), [doc, version]);
  return useSyncExternalStore(subscribe, snapshot);
}
