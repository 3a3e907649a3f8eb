/**
 * The launch review: before a journey goes live (or a live one is replaced), the person sees that
 * it has no problems and what the launch changes against the live version (steps added, removed,
 * changed with the fields that changed; a first launch lists the steps that will run), then
 * confirms. The server launches exactly the journey shown (its fingerprint travels with the
 * launch): a change by anyone after the review refuses the launch, and the review shows the
 * journey as it is now, to be confirmed again.
 */
import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, List, Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconMinus, IconPencil, IconPlus, IconRefresh } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import { Journey as JourneySchema, type Journey, type JourneyStep } from '@gd/shared/journey/model';
import { diffIsEmpty, diffJourneys, journeyFingerprint } from '@gd/shared/journey/review';
import type { JourneySummary } from '@gd/shared/schemas/journeys';
import { api } from '../../api/client.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { errorText } from '../../ui/errorText.ts';
import { stepLabel } from './canvas/labels.ts';
import { fieldLabel } from './fieldLabels.ts';

interface Props {
  opened: boolean;
  journey: Journey;
  summary: JourneySummary;
  onClose: () => void;
  /** Launched as version `version`. */
  onLaunched: (version: number) => void;
  /** The server found problems (it validated its own copy): shown by the caller. */
  onRefused: (error: ApiError) => void;
}

type Live = { state: 'none' } | { state: 'loading' } | { state: 'loaded'; journey: Journey } | { state: 'error'; error: unknown };

export function LaunchReview({ opened, journey, summary, onClose, onLaunched, onRefused }: Props) {
  const { t } = useT();
  const liveVersion = summary.liveVersion;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [changedMeanwhile, setChangedMeanwhile] = useState(false);

  // A version never changes: read once per version (the query cache keeps it).
  const version = useApiQuery('getJourneyVersion', {
    params: { appId: summary.appId, journeyId: summary.id, version: String(liveVersion ?? 0) },
    scope: 'app',
    enabled: opened && liveVersion !== null,
  });
  const live = useMemo((): Live => {
    if (liveVersion === null) return { state: 'none' };
    if (version.data) {
      const parsed = JourneySchema.safeParse(version.data.definition);
      return parsed.success ? { state: 'loaded', journey: parsed.data } : { state: 'error', error: parsed.error };
    }
    return version.state === 'error' ? { state: 'error', error: version.error } : { state: 'loading' };
  }, [liveVersion, version.data, version.state, version.error]);

  const before = liveVersion === null ? null : live.state === 'loaded' ? live.journey : undefined;
  const diff = useMemo(() => (before === undefined ? null : diffJourneys(before, journey)), [before, journey]);
  const close = () => {
    if (busy) return;
    setError(null);
    setChangedMeanwhile(false);
    onClose();
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    setChangedMeanwhile(false);
    try {
      const reviewed = await journeyFingerprint(journey);
      const { version } = await api.call('launchJourney', { params: { appId: summary.appId, journeyId: summary.id }, body: { reviewed } });
      setBusy(false);
      onLaunched(version);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.details?.some((d) => d.message === 'changed_since_review')) setChangedMeanwhile(true);
      else if (e instanceof ApiError && e.code === ErrorCode.MANDATORY) onRefused(e);
      else setError(e);
    }
  };

  const next = (liveVersion ?? 0) + 1;
  const loading = liveVersion !== null && live.state !== 'loaded' && live.state !== 'error';
  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>{t('journeys.review.title', { name: summary.name })}</Text>} size="lg">
      <Stack gap="md" data-testid="launch-review">
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon size={22} radius="xl" color="teal" variant="light" aria-hidden>
            <IconCircleCheck size={15} />
          </ThemeIcon>
          <Text size="sm" data-testid="review-problems">
            {t('journeys.review.noProblems')}
          </Text>
        </Group>

        <Stack gap={6}>
          <Text size="sm" fw={600}>
            {liveVersion === null ? t('journeys.review.firstLaunch') : t('journeys.review.since', { version: liveVersion })}
          </Text>
          {loading && <Loader size="sm" aria-label={t('common.loading')} />}
          {live.state === 'error' && (
            <Alert color="orange" variant="light" p="xs">
              {t('journeys.review.liveUnavailable')}
            </Alert>
          )}
          {diff && <Changes diff={diff} firstLaunch={liveVersion === null} />}
        </Stack>

        {changedMeanwhile && (
          <Alert color="orange" variant="light" icon={<IconRefresh size={16} />} role="alert" data-testid="review-changed-meanwhile">
            {t('journeys.review.changedMeanwhile')}
          </Alert>
        )}
        {error !== null && (
          <Alert color="red" variant="light" role="alert">
            {errorText(t, error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void confirm()} loading={busy} disabled={loading} data-testid="confirm-launch">
            {t('journeys.review.confirm', { version: next })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function Changes({ diff, firstLaunch }: { diff: ReturnType<typeof diffJourneys>; firstLaunch: boolean }) {
  const { t } = useT();
  if (diffIsEmpty(diff)) {
    return (
      <Text size="sm" c="dimmed" data-testid="review-no-changes">
        {t('journeys.review.noChanges')}
      </Text>
    );
  }
  const label = (s: JourneyStep) => stepLabel(t, s);
  const fields = (names: string[]) => names.map((f) => fieldLabel(t, f)).join(', ');
  const section = (key: string, title: string, icon: React.ReactNode, color: string, items: { id: string; text: string }[]) =>
    items.length > 0 && (
      <Stack gap={4} data-testid={`review-${key}`}>
        <Group gap={6}>
          <Badge size="sm" variant="light" color={color} leftSection={icon}>
            {title}
          </Badge>
        </Group>
        <List size="sm" spacing={2} withPadding>
          {items.map((i) => (
            <List.Item key={i.id}>{i.text}</List.Item>
          ))}
        </List>
      </Stack>
    );
  return (
    <Stack gap="xs">
      {section('added', firstLaunch ? t('journeys.review.steps', { count: diff.added.length }) : t('journeys.review.added', { count: diff.added.length }), <IconPlus size={12} />, 'teal', diff.added.map((s) => ({ id: s.id, text: label(s) })))}
      {section('removed', t('journeys.review.removed', { count: diff.removed.length }), <IconMinus size={12} />, 'red', diff.removed.map((s) => ({ id: s.id, text: label(s) })))}
      {section('changed', t('journeys.review.changed', { count: diff.changed.length }), <IconPencil size={12} />, 'blue', diff.changed.map((c) => ({ id: c.step.id, text: `${label(c.step)} · ${fields(c.fields)}` })))}
      {diff.relinked && (
        <Text size="sm" data-testid="review-relinked">
          {t('journeys.review.relinked')}
        </Text>
      )}
    </Stack>
  );
}
