import { Center, Loader, Skeleton, Stack } from '@mantine/core';
import { useT } from '../i18n/useT.ts';
import { useDelayedFlag } from './useDelayedFlag.ts';

/** A page-sized loading indicator that shows only after the debounce. */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useT();
  const shown = useDelayedFlag(true);
  return (
    <Center h={fullScreen ? '100vh' : 240} role="status" aria-live="polite" aria-busy="true">
      {shown && <Loader size="md" aria-label={t('common.loading')} />}
    </Center>
  );
}

/** Placeholder rows for a table or list while its data loads (after the debounce). */
export function ListSkeleton({ rows = 4 }: { rows?: number }) {
  const { t } = useT();
  const shown = useDelayedFlag(true);
  return (
    <Stack gap="sm" role="status" aria-live="polite" aria-busy="true" aria-label={t('common.loading')} data-testid="loading">
      {shown && Array.from({ length: rows }, (_, i) => <Skeleton key={i} height={40} radius="sm" />)}
    </Stack>
  );
}
