/**
 * One message's editor (/communication/messaging?id=<messageId>): the co-edited `message` document
 * opened through the sync layer (browser copy first, so it opens offline), the draft read from it
 * on every change (messageDraftFromDoc) and validated live, the form on the left and the preview of
 * the variant and language on screen on the right. Edits are written as minimal diffs
 * (applyMessageDraftToDoc, LOCAL_ORIGIN: undoable by this person only). Read-only when the
 * document token says so (no edit right on this message in its status) or for a document from a
 * newer app version. The caller's header (status, actions, submission) goes on top.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Badge, Box, Center, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconCloudOff, IconEye } from '@tabler/icons-react';
import type * as Y from 'yjs';
import { applyMessageDraftToDoc, messageDraftFromDoc } from '@gd/shared/docs/messageDoc';
import { ErrorCode } from '@gd/shared/errors';
import { jsonEqual } from '@gd/shared/journey/json';
import { createMessageDraft, type MessageDraft } from '@gd/shared/message/draft';
import { sendsOwnAudience, validateDraft } from '@gd/shared/message/validate';
import type { MessageSummary } from '@gd/shared/schemas/messages';
import { ApiError } from '../../../api/errors.ts';
import { useT } from '../../../i18n/useT.ts';
import { usePermissions } from '../../../session/permissions.ts';
import { useSession } from '../../../session/store.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { CollabStatus } from '../../../sync/CollabStatus.tsx';
import { DocNotices } from '../../../sync/DocNotices.tsx';
import { useDocView, type DocViewSource } from '../../../sync/docView.ts';
import { LOCAL_ORIGIN } from '../../../sync/origins.ts';
import { useCollabDoc } from '../../../sync/useCollabDoc.ts';
import { usePresence } from '../../../sync/usePresence.ts';
import { useUndo } from '../../../sync/useUndo.ts';
import { ErrorBlock } from '../../../ui/States.tsx';
import { rebaseDraft } from './draftEdits.ts';
import { MessageForm } from './MessageForm.tsx';
import { MessagePreview } from './MessagePreview.tsx';
import { restoreMessage } from './restoreMessage.ts';
import { shownIn } from './selection.ts';
import { WhatIfPanel } from '../whatif/WhatIfPanel.tsx';

const PREVIEW_WIDTH = 360;

/** Message-document roots the editor reads; undo covers all but `meta`. */
export const MESSAGE_UNDO_ROOTS = ['settings', 'languages', 'variants', 'content'] as const;
const OBSERVED_ROOTS = ['meta', ...MESSAGE_UNDO_ROOTS] as const;

interface MessageView {
  draft: MessageDraft;
  /** The server's initial content is here (the document may be written). */
  hasContent: boolean;
}

const MESSAGE_VIEW: DocViewSource<MessageView> = {
  read: (doc: Y.Doc) => ({ draft: messageDraftFromDoc(doc), hasContent: doc.getMap('meta').has('kind') }),
  empty: { draft: createMessageDraft('push'), hasContent: false },
  roots: OBSERVED_ROOTS,
  same: jsonEqual,
};

export interface MessageEditorProps {
  messageId: string;
  message: MessageSummary;
  /** Called when the message's summary may have changed elsewhere (a status change announced by the sync server, back online). */
  onChanged: () => void;
  /** Rendered above the form: the message's status, actions and submission banner. */
  header?: ReactNode;
}

export default function MessageEditor({ messageId, message, onChanged, header }: MessageEditorProps) {
  const { t } = useT();
  const collab = useCollabDoc(message.docName);
  const { doc } = collab;
  const canWrite = collab.canWrite;
  const readOnly = !canWrite;
  const view = useDocView(doc, MESSAGE_VIEW);
  const { draft } = view;
  const { peers } = usePresence(collab.awareness, collab.access === 'write');
  const undo = useUndo(doc, MESSAGE_UNDO_ROOTS, canWrite);
  const problems = useDraftProblems(draft);
  const appId = useSession((s) => s.currentAppId) ?? '';

  const [variantId, setVariantId] = useState('');
  const [language, setLanguage] = useState('');
  const shown = shownIn(draft, variantId, language);

  // An edit is made on the draft the form showed; the document may have moved on since (a
  // co-editor's change): only what this edit changed is put onto the current draft.
  const onChange = useCallback(
    (next: MessageDraft) => {
      if (!doc || !canWrite || !doc.getMap('meta').has('kind')) return;
      const current = messageDraftFromDoc(doc);
      applyMessageDraftToDoc(doc, rebaseDraft(draft, next, current), LOCAL_ORIGIN);
    },
    [doc, canWrite, draft],
  );

  // A status change elsewhere (announced by the sync server) or back online: the caller reads the summary again.
  const summarySeen = useRef(0);
  useEffect(() => {
    if (collab.summaryChanges <= summarySeen.current) return;
    summarySeen.current = collab.summaryChanges;
    onChanged();
  }, [collab.summaryChanges, onChanged]);
  const wasOnline = useRef(false);
  useEffect(() => {
    const online = collab.status === 'online';
    if (online && !wasOnline.current) onChanged();
    wasOnline.current = online;
  }, [collab.status, onChanged]);

  if (collab.error) {
    const text = collab.error.kind === 'rejected_again' ? t('messageEditor.rejectedAgain') : t('messageEditor.refused', { reason: collab.error.reason });
    return (
      <Stack gap="md" data-testid="message-editor" data-message-id={messageId}>
        {header}
        <ErrorBlock error={new ApiError(ErrorCode.GENERIC, text)} onRetry={collab.retry} />
      </Stack>
    );
  }
  if (!collab.ready || !view.hasContent) {
    return (
      <Stack gap="md" data-testid="message-editor" data-message-id={messageId}>
        {header}
        {collab.status === 'offline' && !collab.ready ? (
          <Center py={96}>
            <Stack align="center" maw={460} gap="sm" data-testid="no-offline-copy">
              <IconCloudOff size={32} color="var(--mantine-color-orange-6)" aria-hidden />
              <Text ta="center">{t('messageEditor.noOfflineCopy')}</Text>
            </Stack>
          </Center>
        ) : (
          <Center py={96}>
            <Stack align="center" gap="xs" role="status">
              <Loader />
              <Text size="sm" c="dimmed">
                {t('messageEditor.opening')}
              </Text>
            </Stack>
          </Center>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md" data-testid="message-editor" data-message-id={messageId} data-read-only={readOnly}>
      {header}
      <DocNotices
        docName={message.docName}
        collab={collab}
        readOnly={readOnly}
        restoreInto={restoreMessage}
        texts={{ tooNew: t('messageEditor.tooNew'), reloaded: t('messageEditor.reloaded') }}
      />
      <Group gap="md" align="flex-start" wrap="wrap">
        <Box style={{ flex: '1 1 540px', minWidth: 0 }}>
          <MessageForm
            draft={draft}
            onChange={canWrite ? onChange : undefined}
            problems={problems}
            variantId={shown.variant.id}
            language={shown.language}
            onVariantChange={setVariantId}
            onLanguageChange={setLanguage}
          />
        </Box>
        <Stack gap="sm" style={{ flex: `0 1 ${PREVIEW_WIDTH}px`, minWidth: 300, position: 'sticky', top: 'calc(var(--app-shell-header-offset, 60px) + var(--mantine-spacing-md))' }}>
          <Group justify="flex-end" gap="sm" wrap="wrap" data-testid="message-collab">
            {readOnly && (
              <Tooltip label={t('messageEditor.readOnlyHint')} multiline w={260} withArrow>
                <Badge color="gray" variant="outline" tt="none" radius="sm" leftSection={<IconEye size={12} />} tabIndex={0} data-testid="read-only">
                  {t('messageEditor.readOnly')}
                </Badge>
              </Tooltip>
            )}
            <CollabStatus
              peers={peers}
              status={collab.status}
              unsynced={collab.unsynced}
              readOnly={readOnly}
              undo={undo}
              labels={{ undo: t('messageEditor.undo'), undoHint: t('messageEditor.undoHint'), redo: t('messageEditor.redo'), redoHint: t('messageEditor.redoHint') }}
            />
          </Group>
          <MessagePreview content={shown.content} language={shown.language} />
          {sendsOwnAudience(draft.origin) && <WhatIfPanel appId={appId} draft={draft} />}
        </Stack>
      </Group>
    </Stack>
  );
}

/**
 * The draft's problems, live. Placeholders are checked against the app's tag names once the list
 * and the app's communication parameters are known (without them, an unknown placeholder is not
 * reported: it may well be a tag or a parameter).
 */
function useDraftProblems(draft: MessageDraft) {
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const tags = useApiQuery('listTags', { params: { appId }, scope: 'app', enabled: appId !== '' && can('ui:tags.view') });
  const parameters = useApiQuery('listCommunicationParameters', { params: { appId }, scope: 'app', enabled: appId !== '' });
  const tagNames = useMemo(() => (tags.data ? tags.data.tags.map((tag) => tag.name) : null), [tags.data]);
  const parameterDefs = parameters.data?.parameters;
  return useMemo(() => {
    const known = tagNames !== null && parameterDefs !== undefined;
    const all = validateDraft(draft, { tags: tagNames ?? [], parameters: parameterDefs ?? [] });
    return known ? all : all.filter((p) => p.code !== 'placeholder_unknown');
  }, [draft, tagNames, parameterDefs]);
}
