/**
 * What the condition rows offer to pick from: the app's events (the event catalogue: built-in
 * events with their labels and the app's own), its user tags, its audiences and its journeys.
 * Each list is asked for only when the user may read it; without it the row takes typed text
 * (events, campaign ids) or shows the ids it holds (tags, audiences, journeys).
 */
import { useMemo } from 'react';
import { BUILT_IN_EVENTS, SCREEN_EVENT, builtInEventKey } from '@gd/shared/behaviour/events';
import type { TagValueType } from '@gd/shared/schemas/tags';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';

export interface Option {
  value: string;
  label: string;
}

export interface SegmentOptions {
  automaticEvents: Option[];
  appEvents: Option[];
  userTags: (Option & { valueType: TagValueType })[];
  audiences: Option[];
  journeys: Option[];
  /** The tags list loaded (tag conditions can be checked against it). */
  tagsKnown: boolean;
  /** The app's audience ids, once loaded (null: not known, nothing can be checked against it). */
  knownAudiences: ReadonlySet<string> | null;
  /** The app's custom event names, hidden ones included, once the catalogue is loaded. */
  knownEvents: ReadonlySet<string> | null;
  tagType: (tagId: string) => TagValueType | undefined;
}

const CATALOGUE = { or: ['route:/manage/events', 'route:/behavior/events', 'route:/behavior/explore'] } as const;

export function useSegmentOptions(): SegmentOptions {
  const { t } = useT();
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const params = { appId };
  const catalogue = useApiQuery('listEventDefinitions', { params, scope: 'app', enabled: appId !== '' && can(CATALOGUE) });
  const tags = useApiQuery('listTags', { params, scope: 'app', enabled: appId !== '' && can('ui:tags.view') });
  const audiences = useApiQuery('listAudiences', { params, query: { owner: 'all' }, scope: 'app', enabled: appId !== '' && can('ui:audience.view') });
  const journeys = useApiQuery('listJourneys', { params, query: { owner: 'all', scope: 'all' }, scope: 'app', enabled: appId !== '' && can({ or: ['ui:journey.view', 'ui:journey.view:owner'] }) });

  return useMemo(() => {
    const labels = new Map((catalogue.data?.builtIn ?? []).map((e) => [e.name, e.label]));
    const automaticEvents: Option[] = [
      ...BUILT_IN_EVENTS.map((name) => {
        const key = builtInEventKey(name);
        return { value: name, label: labels.get(name) ?? (key ? t(`builtInEvent.${key}`) : name) };
      }),
      { value: SCREEN_EVENT, label: t('segments.field.screenEvent') },
    ];
    const appEvents = (catalogue.data?.custom ?? [])
      .filter((e) => !e.hidden)
      .map((e) => ({ value: e.name, label: e.label ? `${e.label} (${e.name})` : e.name }))
      .sort((a, b) => a.label.localeCompare(b.label));
    const userTags = (tags.data?.tags ?? []).filter((tag) => tag.kind === 'user_tag').map((tag) => ({ value: tag.id, label: tag.name, valueType: tag.valueType }));
    const types = new Map(userTags.map((tag) => [tag.value, tag.valueType]));
    return {
      automaticEvents,
      appEvents,
      userTags,
      audiences: (audiences.data?.audiences ?? []).map((a) => ({ value: a.id, label: a.name })),
      journeys: (journeys.data?.journeys ?? []).map((j) => ({ value: j.id, label: j.name })),
      tagsKnown: tags.data !== undefined,
      knownAudiences: audiences.data ? new Set(audiences.data.audiences.map((a) => a.id)) : null,
      knownEvents: catalogue.data ? new Set(catalogue.data.custom.map((e) => e.name)) : null,
      tagType: (id: string) => types.get(id),
    };
  }, [catalogue.data, tags.data, audiences.data, journeys.data, t]);
}
