import { Link } from 'react-router';
import { Button, Paper } from '@mantine/core';
import { IconMapQuestion } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { PageHeader } from '../ui/PageHeader.tsx';
import { EmptyBlock } from '../ui/States.tsx';

export default function NotFoundPage() {
  const { t } = useT();
  return (
    <>
      <PageHeader title={t('notFound.title')} />
      <Paper withBorder p="xl" data-testid="not-found">
        <EmptyBlock
          icon={<IconMapQuestion size={28} />}
          title={t('notFound.title')}
          description={t('notFound.body')}
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
