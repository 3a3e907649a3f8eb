/**
 * Pick one of an app's landing pages (/manage/landings), drafts marked: the web fallback of a link
 * or powlink (issue 17). Shown only to people who may read the landings (route key).
 */
import { useMemo } from 'react';
import { Select } from '@mantine/core';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';

export function LandingSelect({ appId, value, onChange, error }: { appId: string; value: string | null; onChange: (landingId: string | null) => void; error?: string | undefined }) {
  const { t } = useT();
  const can = usePermissions('app');
  const allowed = can('route:/manage/landings');
  const landings = useApiQuery('landings', { params: { appId }, scope: 'app', enabled: allowed });
  const data = useMemo(
    () => (landings.data?.landings ?? []).map((l) => ({ value: l.id, label: l.status === 'published' ? l.name : t('landings.fallback.draft', { name: l.name }) })),
    [landings.data, t],
  );
  if (!allowed && !value) return null;
  return (
    <Select
      label={t('landings.fallback.label')}
      description={t('landings.fallback.hint')}
      placeholder={t('landings.fallback.placeholder')}
      nothingFoundMessage={t('landings.fallback.none')}
      data={data}
      value={value}
      onChange={(v) => onChange(v)}
      clearable
      searchable
      error={error}
      data-testid="landing-select"
    />
  );
}
