/** Empty and error states with an icon and a call to action. */
import type { ReactNode } from 'react';
import { Button, EmptyState, Paper } from '@mantine/core';
import { IconAlertTriangle, IconLock, IconRefresh } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { errorText } from './errorText.ts';

export function EmptyBlock({ icon, title, description, action }: { icon: ReactNode; title: string; description?: string; action?: ReactNode }) {
  return (
    <EmptyState py={48} icon={icon} variant="light" title={title} description={description} data-testid="empty-state">
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}

/** A screen the user may open but whose content their role may not see: says why, in a bordered block. */
export function NoViewBlock({ description }: { description: string }) {
  const { t } = useT();
  return (
    <Paper withBorder>
      <EmptyBlock icon={<IconLock size={28} />} title={t('noAccess.title')} description={description} />
    </Paper>
  );
}

export function ErrorBlock({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useT();
  return (
    <EmptyState
      py={48}
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={28} />}
      title={t('common.loadFailed')}
      description={errorText(t, error)}
      role="alert"
      data-testid="error-state"
    >
      {onRetry && (
        <EmptyState.Actions>
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </EmptyState.Actions>
      )}
    </EmptyState>
  );
}
