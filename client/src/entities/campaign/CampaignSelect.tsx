/**
 * Pick one of an app's live campaigns (not archived, not deleted), by name, with its source. Used by
 * the acquisition screens that hang things off a campaign (links, powlinks, trackers, SKAdNetwork
 * mappings, the apptracker). A provider member sees only their provider's campaigns (the API's rule).
 */
import { useMemo } from 'react';
import { Select } from '@mantine/core';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';

export interface CampaignSelectProps {
  appId: string;
  value: string | null;
  onChange: (campaignId: string | null) => void;
  label?: string;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  clearable?: boolean;
  error?: string | undefined;
  'data-testid'?: string;
}

export function CampaignSelect({ appId, value, onChange, label, placeholder, required, disabled, clearable, error, ...rest }: CampaignSelectProps) {
  const { t } = useT();
  const campaigns = useApiQuery('campaigns', { params: { appId }, query: { scope: 'all' }, scope: 'app' });
  const data = useMemo(
    () => (campaigns.data?.campaigns ?? [])
      .filter((c) => c.status !== 'archived')
      .map((c) => ({ value: c.id, label: `${c.name} · ${c.sourceName}` })),
    [campaigns.data],
  );
  const failed = campaigns.state === 'error' ? t('acquisition.campaignSelect.failed') : undefined;
  return (
    <Select
      label={label ?? t('acquisition.campaignSelect.label')}
      placeholder={placeholder ?? (campaigns.state === 'loading' && !campaigns.data ? t('acquisition.campaignSelect.loading') : t('acquisition.campaignSelect.placeholder'))}
      nothingFoundMessage={t('acquisition.campaignSelect.none')}
      data={data}
      value={value}
      onChange={(v) => onChange(v)}
      searchable
      required={required ?? false}
      disabled={disabled ?? false}
      clearable={clearable ?? false}
      allowDeselect={clearable ?? false}
      error={error ?? failed}
      data-testid={rest['data-testid'] ?? 'campaign-select'}
    />
  );
}
