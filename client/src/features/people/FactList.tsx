/** Label and value pairs in two aligned columns; empty values show a dash. */
import type { ReactNode } from 'react';
import { Box, Text } from '@mantine/core';
import { useT } from '../../i18n/useT.ts';

export interface Fact { label: string; value: ReactNode; mono?: boolean }

export function FactList({ facts }: { facts: Fact[] }) {
  const { t } = useT();
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'minmax(110px, 40%) 1fr', columnGap: 16, rowGap: 8 }}>
      {facts.map((fact) => {
        const empty = fact.value === null || fact.value === undefined || fact.value === '';
        return (
          <Box key={fact.label} style={{ display: 'contents' }}>
            <Text component="dt" size="sm" c="dimmed">
              {fact.label}
            </Text>
            <Text component="dd" m={0} size="sm" ff={fact.mono && !empty ? 'monospace' : undefined} c={empty ? 'dimmed' : undefined} style={{ overflowWrap: 'anywhere' }}>
              {empty ? t('people.profile.notSet') : fact.value}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
