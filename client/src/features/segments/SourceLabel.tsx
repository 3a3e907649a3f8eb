/**
 * Where an audience's people come from: the segment it follows (a link to its editor), the
 * analysis a fixed audience was saved from (a funnel or a cohort: `origin`), or the import type.
 */
import { Link } from 'react-router';
import { Anchor, Group, Text } from '@mantine/core';
import { IconChartFunnel, IconFileImport, IconFilter, IconTable } from '@tabler/icons-react';
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { useT } from '../../i18n/useT.ts';

export function SourceLabel({ audience }: { audience: Pick<AudienceSummary, 'sourceType' | 'segmentId' | 'segmentName' | 'origin'> }) {
  const { t } = useT();
  const isSegment = audience.sourceType === 'segment';
  const origin = audience.sourceType === 'none' ? (audience.origin ?? null) : null;
  const Icon = isSegment ? IconFilter : origin === 'funnel' ? IconChartFunnel : origin === 'cohort' ? IconTable : IconFileImport;
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Icon size={14} color="var(--mantine-color-dimmed)" aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />
      {isSegment && audience.segmentId ? (
        <Anchor component={Link} to={`?segment=${audience.segmentId}`} size="sm" style={{ wordBreak: 'break-word' }} onClick={(e) => e.stopPropagation()} data-testid="audience-segment-link">
          {audience.segmentName ?? t('audiences.source.segment')}
        </Anchor>
      ) : (
        <Text size="sm" data-testid="audience-source">
          {origin ? t(`audiences.source.${origin}`) : t(`audiences.source.${audience.sourceType}`)}
        </Text>
      )}
    </Group>
  );
}
