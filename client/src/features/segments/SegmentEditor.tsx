/**
 * One segment's editor (/behavior/audiences?segment=<segmentId>): the co-edited document opened
 * through the sync layer (browser copy first, so it opens offline), the conditions derived from it
 * on every change with their problems shown live, and the live estimate beside them. Read-only
 * when the document token says so (no "modify segment" or no audience edit on it), when the
 * user lacks ui:segment.modify, or for a document from a newer app version.
 */
import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Box, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconCloudOff, IconFilter } from '@tabler/icons-react';
import { docName as buildDocName } from '@gd/shared/docs/names';
import { ErrorCode } from '@gd/shared/errors';
import { segmentConditions } from '@gd/shared/segment/model';
import { SegmentSummary, type AudienceSummary } from '@gd/shared/schemas/segments';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useMeta, useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { useCollabDoc } from '../../sync/useCollabDoc.ts';
import { usePresence } from '../../sync/usePresence.ts';
import { useUndo } from '../../sync/useUndo.ts';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { isNetworkError } from '../../api/errors.ts';
import { BackBlock } from './BackBlock.tsx';
import { EstimatePanel } from './EstimatePanel.tsx';
import { estimableSegment, segmentRowProblems } from '../../entities/segment/problems.ts';
import { SegmentEditorHeader } from './SegmentEditorHeader.tsx';
import { SegmentTree } from './SegmentTree.tsx';
import { useEstimate } from './useEstimate.ts';
import { SEGMENT_UNDO_ROOTS, useSegmentDoc } from './useSegmentDoc.ts';
import { useSegmentOptions } from '../../entities/segment/useSegmentOptions.ts';
import { DocNotices } from '../../sync/DocNotices.tsx';
import { restoreSegment } from '@gd/shared/docs/restore';
import { useKeptCopy } from '../../sync/useKeptCopy.ts';
import { useLastKnown } from '../../sync/useLastKnown.ts';

const ESTIMATE_WIDTH = 340;

export default function SegmentEditor({ segmentId }: { segmentId: string }) {
  const { t } = useT();
  const meta = useMeta();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const [params] = useSearchParams();
  const backHref = useMemo(() => {
    const next = new URLSearchParams(params);
    next.delete('segment');
    next.set('view', 'segments');
    return `?${next.toString()}`;
  }, [params]);
  const summary = useApiQuery('getSegment', { params: { appId, segmentId }, scope: 'app', enabled: appId !== '' });
  const unreachable = summary.state === 'error' && isNetworkError(summary.error);
  // Offline (even reloaded offline): the name and details from the browser's copy.
  const fresh = useMemo(() => ({ data: summary.data?.segment, loadedAt: summary.loadedAt }), [summary.data, summary.loadedAt]);
  const kept = useKeptCopy(SegmentSummary, appId ? `segment:${appId}:${segmentId}` : null, fresh, unreachable);
  const segment = kept?.data ?? summary.data?.segment;
  usePageTitle(segment?.name ?? t('segments.list.title'));
  // The document name: from the summary; when the server is unreachable, from the ids; kept while
  // the summary reloads when the connection returns (useLastKnown: the editor stays mounted).
  const name = useLastKnown(segment?.docName ?? (unreachable && appId ? buildDocName(meta.account.id, appId, 'segment', segmentId) : null), segmentId);

  if (summary.state === 'error' && !unreachable) {
    const missing = summary.error instanceof ApiError && summary.error.code === ErrorCode.NO_PERMISSION;
    return (
      <BackBlock backHref={backHref} backLabel={t('segments.editor.back')}>
        <ErrorBlock error={missing ? new ApiError(ErrorCode.NO_PERMISSION, t('segments.editor.notFound')) : summary.error} onRetry={missing ? undefined : summary.refetch} />
      </BackBlock>
    );
  }
  if (!name) return <Opening />;
  return <Editor key={name} appId={appId} docName={name} summary={segment} refetch={summary.refetch} backHref={backHref} />;
}

function Opening() {
  const { t } = useT();
  return (
    <Center py={96}>
      <Stack align="center" gap="xs" role="status">
        <Loader />
        <Text size="sm" c="dimmed">
          {t('segments.editor.opening')}
        </Text>
      </Stack>
    </Center>
  );
}

interface EditorProps {
  appId: string;
  docName: string;
  /** The segment's summary (the browser's copy when the server cannot be reached). */
  summary: SegmentSummary | undefined;
  refetch: () => void;
  backHref: string;
}

function Editor({ appId, docName, summary, refetch, backHref }: EditorProps) {
  const { t } = useT();
  const navigate = useNavigate();
  const can = usePermissions('app');
  const collab = useCollabDoc(docName);
  const canWrite = collab.canWrite && can('ui:segment.modify');
  const readOnly = !canWrite;
  const { segment, onOp } = useSegmentDoc(collab.doc, canWrite, collab);
  const { peers, setLocalPresence } = usePresence(collab.awareness, collab.access === 'write');
  const undo = useUndo(collab.doc, SEGMENT_UNDO_ROOTS, canWrite);
  const options = useSegmentOptions();

  const problems = useMemo(() => segmentRowProblems(segment, options.tagType, options.tagsKnown), [segment, options]);
  const conditionCount = useMemo(() => segmentConditions(segment).length, [segment]);
  const estimable = useMemo(() => estimableSegment(segment, problems), [segment, problems]);
  const estimate = useEstimate(appId, estimable.segment, collab.ready && collab.status !== 'offline' && can({ or: ['ui:audience.view', 'ui:segment.modify'] }));

  const onFocusNode = useCallback((key: string | null) => setLocalPresence({ selectedStepId: key }), [setLocalPresence]);

  const onSaved = (audience: AudienceSummary) => {
    notifySuccess(t('segments.save.saved', { name: audience.name, count: audience.personCount ?? 0 }));
    const next = new URLSearchParams();
    next.set('audience', audience.id);
    void navigate(`?${next.toString()}`);
  };

  if (collab.error) {
    const message = collab.error.kind === 'rejected_again' ? t('segments.editor.rejectedAgain') : t('segments.editor.refused', { reason: collab.error.reason });
    return (
      <BackBlock backHref={backHref} backLabel={t('segments.editor.back')}>
        <ErrorBlock error={new ApiError(ErrorCode.GENERIC, message)} onRetry={collab.retry} />
      </BackBlock>
    );
  }
  if (!collab.ready) {
    if (collab.status !== 'offline') return <Opening />;
    return (
      <BackBlock backHref={backHref} backLabel={t('segments.editor.back')} testId="no-offline-copy">
        <IconCloudOff size={32} color="var(--mantine-color-orange-6)" aria-hidden />
        <Text ta="center">{t('segments.editor.noOfflineCopy')}</Text>
      </BackBlock>
    );
  }

  return (
    <Stack gap="md" data-testid="segment-editor" data-read-only={readOnly}>
      <SegmentEditorHeader
        appId={appId}
        segment={summary}
        backHref={backHref}
        status={collab.status}
        unsynced={collab.unsynced}
        readOnly={readOnly}
        peers={peers}
        undo={undo}
        conditionCount={conditionCount}
        problemCount={problems.size}
        refetch={refetch}
        onSaved={onSaved}
      />
      <DocNotices
        docName={docName}
        collab={collab}
        readOnly={readOnly}
        restoreInto={restoreSegment}
        texts={{ tooNew: t('segments.editor.tooNew'), reloaded: t('segments.editor.reloaded') }}
      />
      <Group gap="md" align="flex-start" wrap="wrap">
        <Paper withBorder radius="md" p="md" style={{ flex: '1 1 560px', minWidth: 0 }} data-testid="segment-conditions">
          <Stack gap="md">
            <Group justify="space-between">
              <Text fw={600}>{t('segments.editor.conditions')}</Text>
              {problems.size > 0 && (
                <Text size="sm" c="red.7" data-testid="problem-count">
                  {t('segments.editor.problems', { count: problems.size })}
                </Text>
              )}
            </Group>
            {conditionCount === 0 && (
              <EmptyBlock icon={<IconFilter size={26} />} title={t('segments.editor.emptyTitle')} description={readOnly ? t('segments.editor.emptyReadOnly') : t('segments.editor.emptyBody')} />
            )}
            <SegmentTree segment={segment} problems={problems} readOnly={readOnly} options={options} peers={peers} onOp={onOp} onFocusNode={onFocusNode} />
          </Stack>
        </Paper>
        <Box style={{ flex: `0 1 ${ESTIMATE_WIDTH}px`, minWidth: 280, position: 'sticky', top: 'calc(var(--app-shell-header-offset, 60px) + var(--mantine-spacing-md))' }}>
          <EstimatePanel estimate={estimate} leftOut={estimable.leftOut} empty={conditionCount === 0} offline={collab.status === 'offline'} />
        </Box>
      </Group>
    </Stack>
  );
}
