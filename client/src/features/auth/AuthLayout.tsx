/** Public pages: a clean centered card with the product name; language menu in the corner. */
import { Outlet, useLocation } from 'react-router';
import { Box, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartArrowsVertical } from '@tabler/icons-react';
import { stripLanguage } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import { AuthLanguageSelect } from './AuthLanguageSelect.tsx';

export default function AuthLayout() {
  const { t } = useT();
  const wide = ['/register', '/legacy'].includes(stripLanguage(useLocation().pathname));
  return (
    <Box mih="100vh" style={{ background: 'linear-gradient(160deg, var(--mantine-color-brand-0) 0%, var(--mantine-color-gray-0) 45%)' }}>
      <Group justify="flex-end" p="md">
        <AuthLanguageSelect />
      </Group>
      <Center px="md" pt="4vh" pb={48}>
        <Stack w="100%" maw={wide ? 620 : 440} gap="lg">
          <Stack align="center" gap={6}>
            <Group gap={10}>
              <ThemeIcon size={40} radius="md" variant="filled">
                <IconChartArrowsVertical size={24} />
              </ThemeIcon>
              <Title order={2} fz={28} lts={-0.4}>
                {t('app.name')}
              </Title>
            </Group>
            <Text c="dimmed" size="sm" ta="center">
              {t('app.tagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" p={32} radius="lg" component="main">
            <Outlet />
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
