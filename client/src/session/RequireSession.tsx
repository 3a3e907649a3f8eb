/**
 * The signed-in part of the app: loads `/user/meta` once, shows a debounced loader meanwhile,
 * a full-page error with retry when the API cannot answer, and sends a visitor without a
 * session to /login?next=<where they were>.
 */
import { useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { Button, Center, Stack } from '@mantine/core';
import { useT } from '../i18n/useT.ts';
import { PageLoader } from '../ui/Loading.tsx';
import { ErrorBlock } from '../ui/States.tsx';
import { useSession } from './store.ts';

export function RequireSession() {
  const { t } = useT();
  const status = useSession((s) => s.status);
  const error = useSession((s) => s.error);
  const load = useSession((s) => s.load);
  const location = useLocation();

  useEffect(() => {
    if (status === 'idle') void load();
  }, [status, load]);

  if (status === 'signedIn') return <Outlet />;
  if (status === 'signedOut') {
    const next = `${location.pathname}${location.search}`;
    const target = next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
    return <Navigate to={target} replace />;
  }
  if (status === 'error') {
    return (
      <Center mih="100vh">
        <Stack align="center">
          <ErrorBlock error={error} onRetry={() => void load()} />
          <Button variant="subtle" component={Link} to="/login">
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </Center>
    );
  }
  return <PageLoader fullScreen />;
}
