/** A route the user's role does not include: a clear page, not a crash. */
import { Link } from 'react-router';
import { Button, Paper } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { RouteDef } from '@gd/shared/routes';
import { navKey } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';

export function NoAccessPage({ route }: { route?: RouteDef }) {
  const { t } = useT();
  const title = route ? t(navKey(route.label)) : t('noAccess.title');
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="xl" data-testid="no-access">
        <EmptyBlock
          icon={<IconLock size={28} />}
          title={t('noAccess.title')}
          description={route ? t('noAccess.body', { screen: title }) : t('noAccess.bodyNone')}
          action={
            route && (
              <Button component={Link} to="/" variant="default">
                {t('common.backHome')}
              </Button>
            )
          }
        />
      </Paper>
    </>
  );
}
