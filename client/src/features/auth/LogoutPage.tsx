/** /logout: ends the session on the server, forgets everything in the browser, goes to /login. */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Loader, Stack, Text } from '@mantine/core';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { browserCopiesCleared } from '../../session/localCopies.ts';
import { useSession } from '../../session/store.ts';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';

let running: Promise<void> | null = null;

export function logout(): Promise<void> {
  running ??= api
    .call('logout')
    .then(() => undefined, () => undefined)
    .then(() => {
      useSession.getState().signOut();
      try {
        window.sessionStorage.clear();
      } catch {
        // Nothing stored.
      }
      // signOut started clearing the browser copies (IndexedDB documents, cached lists): wait for it.
      return browserCopiesCleared();
    })
    .finally(() => {
      running = null;
    });
  return running;
}

export default function LogoutPage() {
  const { t } = useT();
  const navigate = useNavigate();
  const shown = useDelayedFlag(true);
  useEffect(() => {
    void logout().then(() => navigate('/login', { replace: true }));
  }, [navigate]);
  return (
    <Stack align="center" gap="sm" role="status" aria-live="polite">
      {shown && <Loader />}
      <Text size="sm" c="dimmed">
        {t('auth.logout.progress')}
      </Text>
    </Stack>
  );
}
