/** A page that cannot show its content (not found, refused, no offline copy): the reason and a way back. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Center, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';

export function BackBlock({ children, backHref, backLabel, testId }: { children: ReactNode; backHref: string; backLabel: string; testId?: string }) {
  return (
    <Center py={64}>
      <Stack align="center" maw={520} gap="sm" data-testid={testId}>
        {children}
        <Button component={Link} to={backHref} variant="default" leftSection={<IconArrowLeft size={16} />}>
          {backLabel}
        </Button>
      </Stack>
    </Center>
  );
}
