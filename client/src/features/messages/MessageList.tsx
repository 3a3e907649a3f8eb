/**
 * The messages of the current app: owner (mine/anyone; "anyone" by default for roles holding
 * `ui:messaging.showAll`), scope (current/all with finished), type, status, origin and category
 * filters (a message matches a category it or its campaign has) and a search, all kept in the
 * address so a link shows the same list; and "New message". Rows show the message's categories
 * and its campaign's.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Group, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMessage, IconPlus, IconSearch } from '@tabler/icons-react';
import type { CampaignScope, OwnershipFilter } from '@gd/shared/enums';
import { MessageOrigin } from '@gd/shared/message/draft';
import { COMMUNICATION_STATUSES, type CommunicationStatus } from '@gd/shared/message/lifecycle';
import { CommunicationGroup, CommunicationType, communicationGroup } from '@gd/shared/message/model';
import type { MessageSummary } from '@gd/shared/schemas/messages';
import type { TFunction } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { ListSkeleton } from '../../ui/Loading.tsx';
import { NAME_CELL_STYLE, NameLink } from '../../ui/NameLink.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, ErrorBlock, NoViewBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { MessageStatusBadge } from '../../entities/message/MessageStatus.tsx';
import { NewMessageDialog } from './NewMessageDialog.tsx';
import { CategoryFilter } from '../../entities/category/CategoryFilter.tsx';
import { EntityCategoryBadges } from '../../entities/category/CategoryPicker.tsx';
import { categoryParam, useCategories, useCategoryAssignments } from '../../entities/category/categories.ts';

type Owner = (typeof OwnershipFilter.options)[number];
type Scope = (typeof CampaignScope.options)[number];

/** The type picker's options, grouped by communication group (SPEC §3). */
export function typeOptions(t: TFunction) {
  return CommunicationGroup.options.map((group) => ({
    group: t(`messages.group.${group}`),
    items: CommunicationType.options.filter((type) => communicationGroup(type) === group).map((type) => ({ value: type, label: t(`messages.type.${type}`) })),
  }));
}

const pick = <T extends string>(options: readonly T[], value: string | null): T | undefined => (value !== null && (options as readonly string[]).includes(value) ? (value as T) : undefined);

export interface MessageListProps {
  /**
   * One type only (the native ads screen): no type filter, "New" creates that type, and a row opens
   * the message on /communication/messaging, where every message is edited.
   */
  fixedType?: CommunicationType;
  title?: string;
  description?: string;
  /** Shown between the header and the filters (the native ads screen's templates). */
  aside?: ReactNode;
  /** The "New" button's and the empty list's texts, when not the messages'. */
  texts?: { new: string; emptyTitle: string; emptyBody: string };
}

export function MessageList({ fixedType, title, description, aside, texts }: MessageListProps = {}) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  const navigate = useNavigate();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const [params, setParams] = useSearchParams();
  const seesAll = can('ui:message.view');
  const seesAny = can({ or: ['ui:message.view', 'ui:message.view:owner', 'ui:message.read'] });
  const ownerParam = params.get('owner');
  const owner: Owner = !seesAll ? 'me' : ownerParam === 'me' || ownerParam === 'all' ? ownerParam : can('ui:messaging.showAll') ? 'all' : 'me';
  const scope: Scope = params.get('scope') === 'all' ? 'all' : 'current';
  const type = fixedType ?? pick(CommunicationType.options, params.get('type'));
  const status = pick<CommunicationStatus>(COMMUNICATION_STATUSES, params.get('status'));
  const origin = pick(MessageOrigin.options, params.get('origin'));
  const q = params.get('q') ?? '';
  const categoryId = categoryParam(params.get('category'));
  const [search, setSearch] = useState(q);
  const [debounced] = useDebouncedValue(search, 250);
  // `?new=<type>` (the journey editor's "create a journey message" link) opens the new-message
  // dialog for that type, with the origin the list is filtered by.
  const newType = pick(CommunicationType.options, params.get('new'));
  const [creatingByHand, setCreatingByHand] = useState(false);
  const creating = creatingByHand || (newType !== undefined && can('ui:message.create'));
  const setCreating = (open: boolean) => {
    setCreatingByHand(open);
    if (!open && params.has('new')) {
      const next = new URLSearchParams(params);
      next.delete('new');
      setParams(next, { replace: true });
    }
  };

  const setFilter = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
    setParams(next, { replace: true });
  };
  // The search box writes the address once typing pauses.
  useEffect(() => {
    if (debounced.trim() !== q) setFilter('q', debounced.trim());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a settled search writes
  }, [debounced]);

  const query = useMemo(
    () => ({ owner, scope, ...(type ? { type } : {}), ...(status ? { status } : {}), ...(origin ? { origin } : {}), ...(q ? { q } : {}), ...(categoryId ? { categoryId } : {}) }),
    [owner, scope, type, status, origin, q, categoryId],
  );
  const list = useApiQuery('listMessages', { params: { appId }, query, scope: 'app', enabled: appId !== '' && seesAny });
  const messageCategories = useCategoryAssignments(appId, 'message', seesAny);
  const campaignCategories = useCategoryAssignments(appId, 'campaign', seesAny);
  const categoryList = useCategories();
  const filtered = Boolean((type && !fixedType) || status || origin || q || categoryId) || (owner === 'me' && seesAll);

  const openHref = (id: string) => {
    if (fixedType) return `/communication/messaging?${new URLSearchParams({ id }).toString()}`;
    const next = new URLSearchParams(params);
    next.delete('new');
    next.set('id', id);
    return `?${next.toString()}`;
  };
  const clearFilters = () => {
    setSearch('');
    setParams(new URLSearchParams(), { replace: true });
  };

  const newButton = (
    <GatedButton allowed={can('ui:message.create')} leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-message">
      {texts?.new ?? t('messages.new')}
    </GatedButton>
  );
  const header = <PageHeader title={title ?? t('nav.messaging')} description={description ?? t('messages.description')} actions={seesAny ? newButton : undefined} />;
  if (!seesAny) return <>{header}<NoViewBlock description={t('permissions.denied')} /></>;

  const anyOption = { value: '', label: t('messages.filter.any') };
  const filters = (
    <Group gap="lg" wrap="wrap" mb="md" align="flex-end" data-testid="message-filters">
      {seesAll && (
        <Stack gap={4}>
          <Text size="xs" fw={600} c="dimmed" id="messages-owner-label">{t('messages.owner.label')}</Text>
          <SegmentedControl
            size="sm" aria-labelledby="messages-owner-label" value={owner} onChange={(v) => setFilter('owner', v)} data-testid="owner-filter"
            data={[{ value: 'me', label: t('messages.owner.me') }, { value: 'all', label: t('messages.owner.all') }]}
          />
        </Stack>
      )}
      <Stack gap={4}>
        <Text size="xs" fw={600} c="dimmed" id="messages-scope-label">{t('messages.scope.label')}</Text>
        <SegmentedControl
          size="sm" aria-labelledby="messages-scope-label" value={scope} onChange={(v) => setFilter('scope', v)} data-testid="scope-filter"
          data={[{ value: 'current', label: t('messages.scope.current') }, { value: 'all', label: t('messages.scope.all') }]}
        />
      </Stack>
      {!fixedType && <Select
        size="sm" w={190} label={t('messages.filter.type')} value={type ?? ''} onChange={(v) => setFilter('type', v)} allowDeselect={false}
        data={[anyOption, ...typeOptions(t)]} comboboxProps={{ withinPortal: true }} data-testid="type-filter"
      />}
      <Select
        size="sm" w={160} label={t('messages.filter.status')} value={status ?? ''} onChange={(v) => setFilter('status', v)} allowDeselect={false}
        data={[anyOption, ...COMMUNICATION_STATUSES.filter((s) => s !== 'Deleted').map((s) => ({ value: s, label: t(`messages.status.${s}`) }))]} data-testid="status-filter"
      />
      <Select
        size="sm" w={180} label={t('messages.filter.origin')} value={origin ?? ''} onChange={(v) => setFilter('origin', v)} allowDeselect={false}
        data={[anyOption, ...MessageOrigin.options.map((o) => ({ value: o, label: t(`messages.origin.${o}`) }))]} data-testid="origin-filter"
      />
      <CategoryFilter entityType={['message', 'campaign']} value={categoryId} onChange={(id) => setFilter('category', id ?? null)} w={190} />
      <TextInput
        size="sm" style={{ flex: 1, minWidth: 200 }} label={t('messages.search')} placeholder={t('messages.searchPlaceholder')} leftSection={<IconSearch size={16} />}
        value={search} onChange={(e) => setSearch(e.currentTarget.value)} data-testid="message-search" type="search"
      />
    </Group>
  );

  const messages = list.data?.messages;
  let body;
  if (list.state === 'error' && !messages) body = <ErrorBlock error={list.error} onRetry={list.refetch} />;
  else if (!messages) body = <ListSkeleton rows={5} />;
  else {
    body = (
      <ListTable
        isEmpty={messages.length === 0}
        empty={
          filtered ? (
            <EmptyBlock icon={<IconMessage size={28} />} title={t('messages.emptyFilteredTitle')} description={t('messages.emptyFilteredBody')} action={<Button variant="default" onClick={clearFilters}>{t('messages.clearFilters')}</Button>} />
          ) : (
            <EmptyBlock icon={<IconMessage size={28} />} title={texts?.emptyTitle ?? t('messages.emptyTitle')} description={texts?.emptyBody ?? t('messages.emptyBody')} action={newButton} />
          )
        }
        label={t('nav.messaging')}
        minWidth={980}
        head={
          <>
            <Table.Th>{t('messages.col.name')}</Table.Th>
            <Table.Th>{t('messages.col.campaign')}</Table.Th>
            <Table.Th>{t('messages.col.type')}</Table.Th>
            <Table.Th>{t('messages.col.status')}</Table.Th>
            <Table.Th>{t('messages.col.origin')}</Table.Th>
            <Table.Th>{t('messages.col.owner')}</Table.Th>
            <Table.Th>{t('messages.col.updated')}</Table.Th>
          </>
        }
      >
        {messages.map((m: MessageSummary) => (
          <Table.Tr key={m.id} data-testid="message-row" data-message-id={m.id} data-status={m.status} style={{ cursor: 'pointer' }} onClick={() => void navigate(openHref(m.id))}>
            <Table.Td style={NAME_CELL_STYLE}>
              <NameLink to={openHref(m.id)} name={m.name} label={t('messages.open', { name: m.name })} />
              <EntityCategoryBadges all={categoryList.data?.categories} ids={messageCategories.byEntity.get(m.id)} />
            </Table.Td>
            <Table.Td maw={240}>
              <Text size="sm" truncate="end" title={m.campaignName}>{m.campaignName}</Text>
              <EntityCategoryBadges all={categoryList.data?.categories} ids={campaignCategories.byEntity.get(m.campaignId)} max={2} />
            </Table.Td>
            <Table.Td><Text size="sm">{t(`messages.type.${m.type}`)}</Text></Table.Td>
            <Table.Td><MessageStatusBadge status={m.status} /></Table.Td>
            <Table.Td><Text size="sm" c="dimmed">{t(`messages.origin.${m.origin}`)}</Text></Table.Td>
            <Table.Td><Text size="sm">{m.ownerName ?? t('messages.unknownOwner')}</Text></Table.Td>
            <Table.Td><Text size="sm" c="dimmed">{formatDateTime(m.updatedAt, lang)}</Text></Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
    );
  }

  return (
    <>
      {header}
      {aside}
      {filters}
      <div data-testid="message-list">{body}</div>
      {creating && (
        <NewMessageDialog
          appId={appId}
          initialType={fixedType ?? newType}
          initialOrigin={origin}
          onClose={() => setCreating(false)}
          onCreated={(message) => {
            setCreating(false);
            list.refetch();
            void navigate(openHref(message.id));
          }}
        />
      )}
    </>
  );
}
