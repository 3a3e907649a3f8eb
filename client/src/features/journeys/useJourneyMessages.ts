/**
 * The app's campaigns and messages for the journey editor (listCampaigns, one cached query shared
 * by the editor's rule check, the node summaries and the step pickers). Asked for only when the
 * person may read messages; without it nothing is known here (the step takes typed ids and launch
 * still checks them).
 */
import { useCallback, useMemo } from 'react';
import type { CampaignSummary } from '@gd/shared/schemas/messages';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { journeyMessageKeys, type CampaignMessage } from './messages.ts';

const VIEW = { or: ['ui:message.view', 'ui:message.view:owner', 'ui:message.read'] } as const;

export interface JourneyMessages {
  /** The person may read the app's messages (else pickers fall back to typed ids). */
  readable: boolean;
  campaigns: CampaignSummary[];
  /** The list answered at least once. */
  loaded: boolean;
  failed: boolean;
  /** What message steps may name (messages.ts journeyMessageKey), null until known. */
  keys: ReadonlySet<string> | null;
  /** A campaign's message by ids, when the app has it. */
  find: (campaignId: string, messageId: string) => CampaignMessage | undefined;
  refetch: () => void;
}

export function useJourneyMessages(): JourneyMessages {
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const readable = can(VIEW);
  const query = useApiQuery('listCampaigns', { params: { appId }, scope: 'app', enabled: appId !== '' && readable });
  const { data, state, refetch } = query;
  const campaigns = useMemo(() => data?.campaigns ?? [], [data]);
  const keys = useMemo(() => (data ? journeyMessageKeys(data.campaigns) : null), [data]);
  const find = useCallback(
    (campaignId: string, messageId: string) => campaigns.find((c) => c.id === campaignId)?.messages.find((m) => m.id === messageId),
    [campaigns],
  );
  return { readable, campaigns, loaded: data !== undefined, failed: data === undefined && state === 'error', keys, find, refetch };
}
