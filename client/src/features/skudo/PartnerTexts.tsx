/**
 * The partner pages are public (no account session), so the feature screens' texts are not loaded
 * for them by RequireSession: this gate loads them (once) before showing its children.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Center } from '@mantine/core';
import { loadFeatureTexts } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/useT.ts';
import { PageLoader } from '../../ui/Loading.tsx';
import { ErrorBlock } from '../../ui/States.tsx';

export function PartnerTexts({ children }: { children: ReactNode }) {
  const { t } = useT();
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    if (state !== 'loading') return;
    loadFeatureTexts().then(() => setState('ready'), () => setState('failed'));
  }, [state]);
  if (state === 'ready') return <>{children}</>;
  if (state === 'failed') {
    return (
      <Center py="xl">
        <ErrorBlock error={new Error(t('common.screenFailed'))} onRetry={() => setState('loading')} />
      </Center>
    );
  }
  return <PageLoader />;
}
