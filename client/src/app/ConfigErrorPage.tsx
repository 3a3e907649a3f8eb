import { Center, Code, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';

/** Full-page configuration error: the API base URL could not be determined. */
export function ConfigErrorPage({ detail }: { detail: string }) {
  const { t } = useT();
  return (
    <Center mih="100vh" p="xl" bg="gray.0">
      <Paper withBorder p="xl" maw={560} role="alert">
        <Stack gap="md">
          <ThemeIcon size={48} radius="xl" color="red" variant="light">
            <IconPlugConnectedX size={26} />
          </ThemeIcon>
          <Title order={1} fz={22}>
            {t('config.title')}
          </Title>
          <Text>{t('config.body')}</Text>
          <Code block>{detail}</Code>
          <Text size="sm" c="dimmed">
            {t('config.hint')}
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
