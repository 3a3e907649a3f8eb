/**
 * The signed-in part of the app: loads `/user/meta` once, shows a debounced loader meanwhile,
 * a full-page error with retry when the API cannot answer, and sends a visitor without a
 * session to /login?next=<where they were>.
 */
import { useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { Button, Center, Stack } from '@mantine/core';
import { loadFeatureTexts } from '../i18n/i18n.ts';
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

  // The feature screens' texts are not in the login page's bundle: fetched once here.
  const [texts, setTexts] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    if (texts !== 'loading') return;
    loadFeatureTexts().then(() => setTexts('ready'), () => setTexts('failed'));
  }, [texts]);

  if (status === 'signedIn' && texts === 'failed') {
    return (
      <Center mih="100vh">
        <ErrorBlock error={new Error(t('common.screenFailed'))} onRetry={() => setTexts('loading')} />
      </Center>
    );
  }
  if (status === 'signedIn' && texts === 'ready') return <Outlet />;
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
