/** A postback: an HTTPS call (URL, method, headers, body) or an experience-platform integration. */
import { useState } from 'react';
import { Input, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { PostbackAction, PostbackMethod, PostbackTarget, PostbackValueMode, type PostbackEntry, type StepOf } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import type { TKey } from '../../../i18n/keys.ts';
import { useFieldErrors, type Patch } from './context.ts';
import { DraftTextInput } from '../../../ui/draft.tsx';
import { EntriesEditor } from './EntriesEditor.tsx';
import { JsonBodyField } from './JsonBodyField.tsx';
import { entriesToJson, jsonToEntries } from './postbackBody.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { usePermissions } from '../../../session/permissions.ts';

/**
 * The experience-platform integration a postback goes through: picked from the app's integrations
 * of that kind (/manage/integrations). Someone who may edit the journey but not read the
 * integrations screen, or a step naming an integration no longer listed, keeps the id as text.
 */
function IntegrationField({ step, patch, readOnly, error }: { step: Postback; patch: Patch<Postback>; readOnly: boolean; error: string | undefined }) {
  const { t } = useT();
  const can = usePermissions('app');
  const allowed = can('route:/manage/integrations');
  const list = useApiQuery('integrations', { params: {}, query: { kind: 'experience_platform' }, scope: 'app', enabled: allowed });
  const integrations = list.data?.integrations ?? [];
  const known = step.integrationId === null || integrations.some((i) => i.id === step.integrationId);
  if (!allowed || list.state === 'error' || (list.data && !known)) {
    return (
      <DraftTextInput
        label={t('journeyEditor.inspector.integrationId')}
        value={step.integrationId ?? ''}
        error={error}
        readOnly={readOnly}
        onCommit={(v) => patch((s) => ({ ...s, integrationId: v.trim() === '' ? null : v.trim() }))}
      />
    );
  }
  return (
    <Select
      label={t('journeyEditor.inspector.integration')}
      placeholder={list.data && integrations.length === 0 ? t('journeyEditor.inspector.noIntegration') : undefined}
      data={integrations.map((i) => ({ value: i.id, label: i.status === 'connected' ? i.name : `${i.name} (${t(`integrations.status.${i.status}` as TKey)})` }))}
      value={step.integrationId}
      error={error}
      readOnly={readOnly}
      disabled={!list.data}
      clearable
      searchable
      onChange={(v) => patch((s) => ({ ...s, integrationId: v }))}
      data-testid="postback-integration"
    />
  );
}

type Postback = StepOf<'actionPostback'>;

function BodyField({ step, patch, readOnly }: { step: Postback; patch: Patch<Postback>; readOnly: boolean }) {
  const { t } = useT();
  const errorAt = useFieldErrors();
  // The JSON text last shown, so switching to parameters and back in one session loses nothing.
  const [lastJson, setLastJson] = useState<string | null>(null);
  const body = step.postbackBody;
  const json = typeof body === 'string';
  const setMode = (mode: string) => {
    if (mode === 'json' && typeof body !== 'string') {
      patch((s) => ({ ...s, postbackBody: lastJson ?? (body.length ? entriesToJson(body) : '{\n  \n}') }));
    } else if (mode === 'entries' && typeof body === 'string') {
      setLastJson(body);
      patch((s) => ({ ...s, postbackBody: typeof s.postbackBody === 'string' ? jsonToEntries(s.postbackBody) : s.postbackBody }));
    }
  };
  const updateEntries = (fn: (entries: PostbackEntry[]) => PostbackEntry[]) =>
    patch((s) => ({ ...s, postbackBody: fn(typeof s.postbackBody === 'string' ? [] : s.postbackBody) }));
  return (
    <Stack gap="xs">
      <Input.Label labelElement="div">
        {t('journeyEditor.inspector.body')}
      </Input.Label>
      <SegmentedControl
        size="xs"
        value={json ? 'json' : 'entries'}
        aria-label={t('journeyEditor.inspector.body')}
        onChange={setMode}
        data={[
          { value: 'entries', label: t('journeyEditor.inspector.bodyEntries') },
          { value: 'json', label: t('journeyEditor.inspector.bodyJson'), disabled: step.target === 'integration' && !json },
        ]}
      />
      {typeof body === 'string' ? (
        <JsonBodyField value={body} readOnly={readOnly} error={errorAt(['postbackBody'])} onCommit={(text) => patch((s) => ({ ...s, postbackBody: text }))} />
      ) : (
        <>
          <EntriesEditor
            label={t('journeyEditor.inspector.bodyEntries')}
            entries={body}
            readOnly={readOnly}
            onUpdate={updateEntries}
            errorAt={(i) => errorAt(['postbackBody', i])}
          />
          {errorAt(['postbackBody']) && (
            <Text size="xs" c="red" role="alert">
              {errorAt(['postbackBody'])}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

export function PostbackFields({ step, patch, readOnly }: { step: Postback; patch: Patch<Postback>; readOnly: boolean }) {
  const { t } = useT();
  const errorAt = useFieldErrors();
  const option = (value: 'activate' | 'disable' | 'static' | 'dynamic') => ({ value, label: t(`journeyEditor.inspector.${value}`) });
  return (
    <Stack gap="sm">
      <Stack gap={4}>
        <Input.Label labelElement="div">
          {t('journeyEditor.inspector.target')}
        </Input.Label>
        <SegmentedControl
          fullWidth
          aria-label={t('journeyEditor.inspector.target')}
          value={step.target}
          data={[
            { value: 'https', label: t('journeyEditor.inspector.https') },
            { value: 'integration', label: t('journeyEditor.inspector.integration') },
          ]}
          onChange={(v) => {
            const target = PostbackTarget.safeParse(v).data;
            if (target) patch((s) => ({ ...s, target }));
          }}
        />
      </Stack>
      <SimpleGrid cols={2} spacing="xs">
        <Select
          label={t('journeyEditor.inspector.valueMode')}
          value={step.valueMode}
          allowDeselect={false}
          data={[option('static'), option('dynamic')]}
          onChange={(v) => {
            const valueMode = PostbackValueMode.safeParse(v).data;
            if (valueMode) patch((s) => ({ ...s, valueMode }));
          }}
        />
        <Select
          label={t('journeyEditor.inspector.postbackAction')}
          value={step.action}
          allowDeselect={false}
          data={[option('activate'), option('disable')]}
          onChange={(v) => {
            const action = PostbackAction.safeParse(v).data;
            if (action) patch((s) => ({ ...s, action }));
          }}
        />
      </SimpleGrid>
      {step.target === 'https' ? (
        <>
          <DraftTextInput
            label={t('journeyEditor.inspector.url')}
            placeholder="https://"
            type="url"
            value={step.postbackUrl}
            error={errorAt(['postbackUrl'])}
            onCommit={(v) => patch((s) => ({ ...s, postbackUrl: v.trim() }))}
          />
          <Select
            label={t('journeyEditor.inspector.method')}
            value={step.postbackMethod}
            allowDeselect={false}
            data={PostbackMethod.options}
            onChange={(v) => {
              const postbackMethod = PostbackMethod.safeParse(v).data;
              if (postbackMethod) patch((s) => ({ ...s, postbackMethod }));
            }}
          />
          <EntriesEditor
            label={t('journeyEditor.inspector.headers')}
            entries={step.postbackHeader}
            readOnly={readOnly}
            onUpdate={(fn) => patch((s) => ({ ...s, postbackHeader: fn(s.postbackHeader) }))}
            errorAt={(i) => errorAt(['postbackHeader', i])}
          />
        </>
      ) : (
        <IntegrationField step={step} patch={patch} readOnly={readOnly} error={errorAt(['integrationId'])} />
      )}
      <BodyField step={step} patch={patch} readOnly={readOnly} />
    </Stack>
  );
}
