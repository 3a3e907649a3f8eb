/** /auto-login?token=...: signs in with a one-time link, then goes to the link's redirect. */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { stripLanguage } from '@gd/shared/language';
import { api } from '../../api/client.ts';
import { safeRedirect } from '../../i18n/languagePath.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { FormError } from '../../ui/FormError.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

/** One attempt per token: the token is single-use, and React may run effects twice. */
const attempts = new Map<string, Promise<string>>();

function signInWith(token: string): Promise<string> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = api.call('autoLogin', { body: { token } }).then(async ({ redirect }) => {
      await useSession.getState().load();
      const target = safeRedirect(redirect, window.location.origin) ?? '/user/welcome';
      // The router's basename already carries the language; drop a segment the link may add.
      return stripLanguage(target);
    });
    attempts.set(token, attempt);
  }
  return attempt;
}

export default function AutoLoginPage() {
  const { t } = useT();
  usePageTitle(t('auth.autoLogin.title'));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const [failure, setFailure] = useState<unknown>(null);
  const showSpinner = useDelayedFlag(failure === null && token !== '');

  useEffect(() => {
    if (!token) return;
    let live = true;
    signInWith(token).then(
      (target) => live && void navigate(target, { replace: true }),
      (error: unknown) => live && setFailure(error),
    );
    return () => {
      live = false;
    };
  }, [token, navigate]);

  return (
    <Stack gap="md" align="center" ta="center">
      <Title order={1} fz={22}>
        {failure !== null || !token ? t('auth.autoLogin.failed') : t('auth.autoLogin.title')}
      </Title>
      {!token && <Text size="sm">{t('auth.autoLogin.missing')}</Text>}
      {showSpinner && <Loader aria-label={t('common.loading')} />}
      <FormError error={failure} />
      {(failure !== null || !token) && (
        <Button component={Link} to="/login" variant="default">
          {t('auth.backToLogin')}
        </Button>
      )}
    </Stack>
  );
}
