/**
 * "Needs attention" (getHomeAttention): what is wrong in the app among the areas the person may
 * see, each with a link to where it is fixed; "all good" (and what was looked at) when nothing is.
 */
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Divider, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconFileAlert, IconPencilExclamation, IconUsersGroup } from '@tabler/icons-react';
import { JourneyViolationCode } from '@gd/shared/journey/validate';
import type { MetaApp } from '@gd/shared/schemas/account';
import type { AttentionItem, HomeAttention } from '@gd/shared/schemas/home';
import type { TFunction } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { formatDateTime } from '../../ui/format.ts';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { ErrorBlock } from '../../ui/States.tsx';
import { errorNameText } from '../../entities/audience/AudienceStatus.tsx';
import { violationText } from '../../entities/journey/violationText.ts';

interface Shown { icon: ReactNode; color: string; title: string; detail: string; action: string; to: string }

function problemText(t: TFunction, problem: { code: string; params?: Record<string, string | number> | undefined }): string {
  const code = JourneyViolationCode.safeParse(problem.code);
  return code.success ? violationText(t, { code: code.data, ...(problem.params ? { params: problem.params } : {}) }) : t('home.attention.versionUnreadable');
}

/** What one item says and where it leads. */
function shown(t: TFunction, lang: Parameters<typeof formatDateTime>[1], item: AttentionItem): Shown {
  switch (item.type) {
    case 'journey_problems': {
      const [first, ...rest] = item.problems;
      const detail = [first ? problemText(t, first) : '', rest.length ? t('home.attention.moreProblems', { count: rest.length }) : ''].filter(Boolean).join(' ');
      return {
        icon: <IconAlertTriangle size={18} />, color: 'red', title: t('home.attention.journeyProblems', { name: item.name, version: item.version }),
        detail, action: t('home.attention.openJourney'), to: `/communication/journeys?id=${item.journeyId}`,
      };
    }
    case 'journey_unlaunched_edits':
      return {
        icon: <IconPencilExclamation size={18} />, color: 'yellow', title: t('home.attention.journeyEdits', { name: item.name, version: item.version }),
        detail: t('home.attention.editedAt', { when: formatDateTime(item.editedAt, lang) }), action: t('home.attention.reviewLaunch'), to: `/communication/journeys?id=${item.journeyId}`,
      };
    case 'audience_error':
      return {
        icon: <IconUsersGroup size={18} />, color: 'red', title: t('home.attention.audienceError', { name: item.name }),
        detail: t('home.attention.failedAt', { when: formatDateTime(item.at, lang), reason: item.errorName ? errorNameText(t, item.errorName) : t('home.attention.noReason') }),
        action: t('home.attention.openAudience'), to: `/behavior/audiences?audience=${item.audienceId}`,
      };
    case 'import_failed':
      return {
        icon: <IconFileAlert size={18} />, color: 'orange', title: t('home.attention.importFailed', { name: item.name }),
        detail: t('home.attention.failedAt', { when: formatDateTime(item.at, lang), reason: item.errorName ? errorNameText(t, item.errorName) : t('home.attention.noReason') }),
        action: t('home.attention.openImports'), to: '/manage/import-task',
      };
    default: {
      const never: never = item;
      throw new Error(`unknown attention item ${JSON.stringify(never)}`);
    }
  }
}

function AttentionRow({ item }: { item: AttentionItem }) {
  const { t, lang } = useT();
  const s = shown(t, lang, item);
  return (
    <Group wrap="nowrap" align="flex-start" gap="md" px="md" py="sm" data-testid="attention-item" data-type={item.type}>
      <ThemeIcon variant="light" color={s.color} size={32} radius="md">
        {s.icon}
      </ThemeIcon>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {s.title}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {s.detail}
        </Text>
      </Stack>
      <Button component={Link} to={s.to} variant="default" size="xs" style={{ flexShrink: 0 }}>
        {s.action}
      </Button>
    </Group>
  );
}

function AllGood({ app, checked }: { app: MetaApp; checked: HomeAttention['checked'] }) {
  const { t } = useT();
  const areas = (['journeys', 'audiences', 'imports'] as const).filter((a) => checked[a]).map((a) => t(`home.attention.areas.${a}`));
  return (
    <Group wrap="nowrap" gap="md" p="md" data-testid="attention-all-good">
      <ThemeIcon variant="light" color="teal" size={36} radius="xl">
        <IconCircleCheck size={22} />
      </ThemeIcon>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text fw={600}>{t('home.attention.allGood')}</Text>
        <Text size="sm" c="dimmed">
          {t('home.attention.allGoodBody', { app: app.name })} {t('home.attention.checked', { areas: areas.join(', ') })}
        </Text>
      </Stack>
    </Group>
  );
}

export function Attention({ app }: { app: MetaApp }) {
  const { t } = useT();
  const query = useApiQuery('getHomeAttention', { params: { appId: app.id }, scope: 'app' });
  let body: ReactNode;
  if (query.state === 'error') body = <ErrorBlock error={query.error} onRetry={query.refetch} />;
  else if (!query.data) body = <Stack p="md"><ListSkeleton rows={2} /></Stack>;
  else if (query.data.items.length === 0) body = <AllGood app={app} checked={query.data.checked} />;
  else {
    body = query.data.items.map((item, i) => (
      <Fragment key={`${item.type}:${'journeyId' in item ? item.journeyId : 'taskId' in item ? item.taskId : item.audienceId}`}>
        {i > 0 && <Divider />}
        <AttentionRow item={item} />
      </Fragment>
    ));
  }
  return (
    <section aria-labelledby="home-attention-title" data-testid="home-attention">
      <Title order={2} fz="lg" mb="sm" id="home-attention-title">
        {t('home.attention.title')}
      </Title>
      <Paper withBorder radius="md">{body}</Paper>
    </section>
  );
}
