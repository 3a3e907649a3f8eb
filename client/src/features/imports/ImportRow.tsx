/**
 * One import task in the list: name and audience, source, status badge, live progress (share of
 * the file read, rows, then people; or the failure's name, line and message), creation, actions.
 */
import { Badge, Group, Loader, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlayerPlay, IconTrash, IconUsers } from '@tabler/icons-react';
import type { ImportStatus, ImportTask } from '@gd/shared/schemas/imports';
import { hasKey } from '../../i18n/i18n.ts';
import type { TKey } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { GatedIcon } from '../../ui/Gated.tsx';
import { CreatedCell } from '../../ui/CreatedCell.tsx';
import { formatBytes, taskProgress, type TaskProgress } from './progress.ts';

/** Badges keep their whole label when the table is narrow (it scrolls instead). */
const NO_SHRINK = { flexShrink: 0, minWidth: 'max-content' } as const;

const COLOR: Record<ImportStatus, string> = { new: 'gray', in_progress: 'blue', ready: 'teal', sync: 'violet', error: 'red', inactive: 'gray' };

export interface RowAbilities { edit: boolean; delete: boolean }

export function ImportRow({ task, can, onEdit, onRetry, onDelete }: {
  task: ImportTask;
  can: RowAbilities;
  onEdit: () => void;
  onRetry: () => void;
  onDelete: () => void;
}) {
  const { t } = useT();
  const progress = taskProgress(task);
  const running = task.status === 'new' || task.status === 'in_progress';
  return (
    <Table.Tr data-testid="import-row" data-status={task.status}>
      <Table.Td maw={300}>
        <Text size="sm" fw={600} truncate="end">{task.name}</Text>
        <Group gap={6} wrap="nowrap" mt={2}>
          <Tooltip label={t(`imports.type.${task.type}`)} withArrow>
            <Badge size="xs" variant="outline" color="gray" tt="none" radius="sm" style={NO_SHRINK} tabIndex={0}>{t(`imports.typeShort.${task.type}`)}</Badge>
          </Tooltip>
          {task.audienceName && task.audienceName !== task.name && (
            <Group gap={4} wrap="nowrap" c="dimmed" miw={0}>
              <IconUsers size={12} style={NO_SHRINK} />
              <Text size="xs" c="dimmed" truncate="end">{task.audienceName}</Text>
            </Group>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <StatusBadge task={task} progress={progress} />
      </Table.Td>
      <Table.Td w={230}>
        <ProgressCell task={task} progress={progress} />
      </Table.Td>
      <CreatedCell at={task.createdAt} by={task.createdByName} />
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <GatedIcon allowed={can.edit && !running} label={t('imports.retry')} onClick={onRetry} data-testid="import-retry"><IconPlayerPlay size={16} /></GatedIcon>
          <GatedIcon allowed={can.edit && task.status !== 'in_progress'} label={t('imports.edit')} onClick={onEdit}><IconPencil size={16} /></GatedIcon>
          <GatedIcon allowed={can.delete} label={t('imports.delete')} color="red" onClick={onDelete} data-testid="import-delete"><IconTrash size={16} /></GatedIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function StatusBadge({ task, progress }: { task: ImportTask; progress: TaskProgress }) {
  const { t } = useT();
  const warning = progress.phase === 'warning';
  const label = progress.phase === 'waitingFile' ? t('imports.waitingShort') : warning ? t('imports.warning') : t(`imports.status.${task.status}`);
  return (
    <Badge
      color={warning ? 'yellow' : COLOR[task.status]}
      variant="light"
      radius="sm"
      tt="none"
      fw={600}
      data-testid="import-status"
      style={NO_SHRINK}
      leftSection={task.status === 'in_progress' ? <Loader size={10} color="blue" /> : undefined}
    >
      {label}
    </Badge>
  );
}

export function errorNameLabel(t: ReturnType<typeof useT>['t'], name: string): string {
  const key = `imports.errorName.${name}`;
  return hasKey(key) ? t(key as TKey) : name;
}

/**
 * What to do about a failure, in the user's language, when the error has a hint (a CSV syntax
 * error: the parser's own English text stays in the tooltip); else null (the server's message).
 */
export function errorHint(t: ReturnType<typeof useT>['t'], name: string | null): string | null {
  const key = `imports.errorHint.${name ?? ''}`;
  return name && hasKey(key) ? t(key as TKey) : null;
}

function ProgressCell({ task, progress }: { task: ImportTask; progress: TaskProgress }) {
  const { t, lang } = useT();
  const n = (v: number) => v.toLocaleString(lang);
  const p = task.progress;
  if (progress.phase === 'failed') {
    return (
      <Tooltip label={task.errorMessage ?? ''} multiline w={360} withArrow disabled={!task.errorMessage}>
        <Stack gap={0} w={230} tabIndex={0} data-testid="import-error">
          <Text size="sm" c="red.7" fw={600} truncate="end">
            {task.errorName ? errorNameLabel(t, task.errorName) : t('imports.status.error')}
            {task.errorLine !== null && ` · ${t('imports.errorLine', { line: n(task.errorLine) })}`}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">{errorHint(t, task.errorName) ?? task.errorMessage ?? task.errorName ?? ''}</Text>
        </Stack>
      </Tooltip>
    );
  }
  if (progress.phase === 'done' || progress.phase === 'warning') {
    return (
      <Stack gap={0} w={230}>
        <Text size="sm" fw={600} className="gd-num">{t('imports.progress.people', { count: task.personCount ?? 0, n: n(task.personCount ?? 0) })}</Text>
        {p.rowsUnmatched > 0 && <Text size="xs" c="yellow.8">{t('imports.progress.unmatched', { count: n(p.rowsUnmatched), total: n(p.rowsRead) })}</Text>}
        {progress.phase === 'warning' && p.rowsRead === 0 && <Text size="xs" c="yellow.8">{t('imports.progress.empty')}</Text>}
      </Stack>
    );
  }
  const caption = progress.phase === 'resolving' ? t('imports.progress.resolving')
    : progress.phase === 'retrying' ? t('imports.progress.retrying', { attempt: task.attempts + 1, max: task.maxAttempts })
    : progress.phase === 'reading' && p.bytesTotal ? `${t('imports.progress.bytes', { read: formatBytes(p.bytesRead, lang), total: formatBytes(p.bytesTotal, lang) })} · ${t('imports.progress.rows', { count: n(p.rowsRead) })}`
    : progress.phase === 'reading' ? t('imports.progress.rows', { count: n(p.rowsRead) })
    : progress.phase === 'waitingFile' ? t('imports.waitingFile') : t('imports.status.new');
  return (
    <Tooltip label={task.errorMessage ?? ''} multiline w={360} withArrow disabled={progress.phase !== 'retrying' || !task.errorMessage}>
      <Stack gap={4} w={230}>
        <Progress
          value={progress.percent ?? 100}
          animated={progress.percent === null && progress.phase !== 'waitingFile'}
          striped={progress.percent === null}
          color={progress.phase === 'retrying' ? 'yellow' : progress.phase === 'waitingFile' ? 'gray' : 'blue'}
          aria-label={caption}
          data-testid="import-progress"
        />
        <Text size="xs" c="dimmed" truncate="end">{caption}</Text>
      </Stack>
    </Tooltip>
  );
}
