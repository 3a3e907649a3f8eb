/**
 * A push provider's sending limit (issue 13, endpoint setPushRateLimit): notifications a second
 * through that provider from every delivery worker together, for a plan's quota or a proxy's own
 * limit. Shown to everyone who reads the card; changed inline by people who may edit the app.
 * An empty field is no limit.
 */
import { useState } from 'react';
import { Button, Group, NumberInput, Text } from '@mantine/core';
import type { PushCredential } from '@gd/shared/schemas/pushCredentials';
import { api } from '../../api/client.ts';
import { localeFor } from '@gd/shared/language';
import { useT } from '../../i18n/useT.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';

export function PushRateLimit({ appId, credential, editable, onSaved }: { appId: string; credential: PushCredential; editable: boolean; onSaved: () => void }) {
  const { t, lang } = useT();
  const [value, setValue] = useState<number | string>(credential.ratePerSecond ?? '');
  const [saving, setSaving] = useState(false);
  const next = value === '' ? null : Number(value);
  const valid = next === null || (Number.isInteger(next) && next >= 1 && next <= 100_000);
  const changed = next !== credential.ratePerSecond;
  if (!editable) {
    return (
      <Group gap="sm" wrap="nowrap" data-testid="push-rate">
        <Text size="sm" c="dimmed" w={120} style={{ flexShrink: 0 }}>{t('pushCredentials.rate')}</Text>
        <Text size="sm">{credential.ratePerSecond === null ? t('pushCredentials.rateNone') : t('pushCredentials.rateShown', { rate: credential.ratePerSecond.toLocaleString(localeFor(lang)) })}</Text>
      </Group>
    );
  }
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="push-rate">
      <Text size="sm" c="dimmed" w={120} pt={5} style={{ flexShrink: 0 }} id={`push-rate-${credential.provider}`}>{t('pushCredentials.rate')}</Text>
      <NumberInput
        aria-labelledby={`push-rate-${credential.provider}`}
        size="xs"
        w={130}
        // Nothing is clamped or dropped while typing (0 → 1, 1.5 → 15, 200000 → 100000 silently):
        // what was typed stays, and the message under the field says what is wrong with it.
        allowDecimal
        allowNegative
        clampBehavior="none"
        thousandSeparator
        placeholder={t('pushCredentials.rateNone')}
        rightSection={<Text size="xs" c="dimmed" pr={6}>/s</Text>}
        value={value}
        onChange={setValue}
        error={valid ? undefined : t('pushCredentials.rateInvalid')}
        styles={{ error: { width: 260 } }}
      />
      {changed && (
        <Button
          size="compact-xs"
          variant="light"
          disabled={!valid}
          loading={saving}
          onClick={async () => {
            setSaving(true);
            try {
              await api.call('setPushRateLimit', { params: { appId, provider: credential.provider }, body: { ratePerSecond: next } });
              notifySuccess(t('pushCredentials.rateSaved'));
              onSaved();
            } catch (error) {
              notifyError(t, error);
            } finally {
              setSaving(false);
            }
          }}
        >
          {t('common.save')}
        </Button>
      )}
    </Group>
  );
}
