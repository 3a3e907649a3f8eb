/**
 * Catches render failures, including a lazy screen whose chunk cannot load (offline, or a new
 * release replaced the chunks): the page shows a clear message and a reload instead of going blank.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Center, EmptyState } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';

const isChunkFailure = (error: unknown) =>
  error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically|Failed to fetch/i.test(error.message);

function Fallback({ error, fullPage }: { error: unknown; fullPage: boolean }) {
  const { t } = useT();
  const content = (
    <EmptyState
      py={48}
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={28} />}
      title={t('common.screenFailed')}
      description={isChunkFailure(error) ? t('errors.network') : t('errors.10000')}
      role="alert"
      data-testid="screen-error"
    >
      <EmptyState.Actions>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
  return fullPage ? <Center mih="100vh">{content}</Center> : content;
}

export class ErrorBoundary extends Component<{ children: ReactNode; fullPage?: boolean }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Screen failed to render', error, info.componentStack);
  }

  override render() {
    if (this.state.error !== null) return <Fallback error={this.state.error} fullPage={this.props.fullPage ?? false} />;
    return this.props.children;
  }
}
