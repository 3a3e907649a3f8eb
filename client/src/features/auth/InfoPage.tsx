/** /legacy and /skudo/login: plain informative pages. */
import { Link } from 'react-router';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useT } from '../../i18n/useT.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function InfoPage({ kind }: { kind: 'legacy' | 'skudo' }) {
  const { t } = useT();
  const title = t(`auth.info.${kind}.title`);
  usePageTitle(title);
  return (
    <Stack gap="md">
      <Title order={1} fz={22}>
        {title}
      </Title>
      <Text size="sm">{t(`auth.info.${kind}.body`)}</Text>
      <Button component={Link} to="/login" variant="light">
        {t('auth.info.continue')}
      </Button>
    </Stack>
  );
}
