/**
 * Which of the app's messages a journey message step may name (issue 12), pure given the app's
 * campaigns (listCampaigns): a message that journeys send (origin automaticJourney; a classic
 * message is played by hand to its own target), that is not deleted, whose channel is the step's —
 * a push step sends a push message, an email step an e-mail, an in-app step any message of the
 * in-app group. The same matching as launch (api-server messages/repository.ts
 * journeyMessageKeys), so the editor shows message_not_found exactly where launch would refuse.
 */
import type { MessageChannel } from '@gd/shared/journey/model';
import type { JourneyValidationContext } from '@gd/shared/journey/validate';
import type { CommunicationStatus } from '@gd/shared/message/lifecycle';
import { communicationGroup, type CommunicationType } from '@gd/shared/message/model';
import type { CampaignSummary } from '@gd/shared/schemas/messages';

export type CampaignMessage = CampaignSummary['messages'][number];

/** The journey channel that sends a message of this type; null for types no step sends (native ads, A/B tests). */
export function channelOfType(type: CommunicationType): MessageChannel | null {
  switch (communicationGroup(type)) {
    case 'message':
      return type === 'email' ? 'email' : 'push';
    case 'inApp':
      return 'inApp';
    default:
      return null;
  }
}

/** The key launch and the editor check a step against. */
export const journeyMessageKey = (campaignId: string, messageId: string, channel: MessageChannel): string => `${campaignId}/${messageId}/${channel}`;

const live = (m: CampaignMessage) => m.status !== 'Deleted' && m.origin === 'automaticJourney';

/** Why a message the step holds is not one it may name: another channel, or not sent by journeys (null: it may). */
export function heldMessageProblem(m: CampaignMessage, channel: MessageChannel): 'wrongChannel' | 'notJourney' | null {
  if (channelOfType(m.type) !== channel) return 'wrongChannel';
  return m.origin === 'automaticJourney' ? null : 'notJourney';
}

/** The messages screen with the new-message dialog open for a message this step can send. */
export function newJourneyMessageHref(channel: MessageChannel): string {
  const type: CommunicationType = channel === 'inApp' ? 'banner' : channel;
  return `/communication/messaging?${new URLSearchParams({ new: type, origin: 'automaticJourney' }).toString()}`;
}

/** Every message a step may name, as journeyMessageKey keys. */
export function journeyMessageKeys(campaigns: readonly CampaignSummary[]): Set<string> {
  const keys = new Set<string>();
  for (const c of campaigns) {
    for (const m of c.messages) {
      const channel = channelOfType(m.type);
      if (channel && live(m)) keys.add(journeyMessageKey(c.id, m.id, channel));
    }
  }
  return keys;
}

/** The messages of one campaign a step of this channel may pick, in the list's order. */
export function messagesForChannel(campaign: CampaignSummary | undefined, channel: MessageChannel): CampaignMessage[] {
  return (campaign?.messages ?? []).filter((m) => live(m) && channelOfType(m.type) === channel);
}

/**
 * The campaigns as a step of this channel lists them, with how many messages it may pick in each:
 * those with some first, then the others (still listed: a message may be added to them), each
 * part in the list's order.
 */
export function campaignsForChannel(campaigns: readonly CampaignSummary[], channel: MessageChannel): { campaign: CampaignSummary; count: number }[] {
  const counted = campaigns.map((campaign) => ({ campaign, count: messagesForChannel(campaign, channel).length }));
  return [...counted.filter((c) => c.count > 0), ...counted.filter((c) => c.count === 0)];
}

/**
 * The rule "the message must still exist" against what message steps may name (journeyMessageKeys
 * of the app's list): null while the list is not known (loading, or the person
 * may not read messages), then nothing is checked here and launch checks with the database.
 */
export function messageContext(keys: ReadonlySet<string> | null): JourneyValidationContext {
  return { messageExists: (campaignId, messageId, channel) => keys === null || keys.has(journeyMessageKey(campaignId, messageId, channel)) };
}

/** Statuses a step may name but that no approver has let through yet: the step shows a warning, launch accepts them. */
const NOT_APPROVED = new Set<CommunicationStatus>(['Draft', 'To validate']);
export const notApprovedYet = (status: CommunicationStatus): boolean => NOT_APPROVED.has(status);
