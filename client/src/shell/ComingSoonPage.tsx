/** A route whose screen is not built yet: says so plainly; no fake content. */
import { Link } from 'react-router';
import { Button, Paper } from '@mantine/core';
import { IconHourglassHigh } from '@tabler/icons-react';
import type { RouteDef } from '@gd/shared/routes';
import { navKey, type TKey } from '../i18n/keys.ts';
import { useT } from '../i18n/useT.ts';
import { PageHeader } from '../ui/PageHeader.tsx';
import { EmptyBlock } from '../ui/States.tsx';

export function ComingSoonPage({ route }: { route: RouteDef }) {
  const { t } = useT();
  const title = t(navKey(route.label));
  return (
    <>
      <PageHeader title={title} description={t(`area.${route.area}` as TKey)} />
      <Paper withBorder p="xl" data-testid="coming-soon">
        <EmptyBlock
          icon={<IconHourglassHigh size={28} />}
          title={t('comingSoon.title')}
          description={t('comingSoon.body', { screen: title })}
          action={
            <Button component={Link} to="/" variant="default">
              {t('common.backHome')}
            </Button>
          }
        />
      </Paper>
    </>
  );
}
