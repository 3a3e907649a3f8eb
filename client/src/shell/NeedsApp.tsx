import { Link } from 'react-router';
import { Button, Paper } from '@mantine/core';
import { IconApps } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { EmptyBlock } from '../ui/States.tsx';

/** App-scoped screens before the account has an app. */
export function NeedsApp() {
  const { t } = useT();
  return (
    <Paper withBorder>
      <EmptyBlock
        icon={<IconApps size={28} />}
        title={t('setup.noAppTitle')}
        description={t('setup.noAppBody')}
        action={
          <Button component={Link} to="/user/setup">
            {t('setup.createFirst')}
          </Button>
        }
      />
    </Paper>
  );
}
