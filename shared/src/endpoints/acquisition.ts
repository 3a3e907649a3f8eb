/**
 * Acquisition, apptracker side (schemas/acquisition.ts): campaigns, sources and channels of an app,
 * the account's providers, and the platform's ad provider catalogue.
 *
 * Permissions: campaigns are read with `ui:apptracker.view` and changed with the apptracker keys
 * (edit and delete have owner variants); channels go with the campaigns (create, edit, delete);
 * sources and the account's providers with the `ui:sources.*` keys; the catalogue with
 * `route:/admin/providers` (platform administrators), read by accounts through
 * `adProviderCatalogue` to connect from it.
 *
 * Failures: 10001 with details for bad input; 10 for an id of nothing, of another app or another
 * account; 30 for a name in use; 20003 deleting a provider (catalogue or account) whose campaigns
 * have active links; 10004 without the permission.
 */
import { z } from 'zod';
import {
  AccountProvider, AccountProviderInput, AdProvider, AdProviderInput, Campaign, CampaignDownloadQuery, CampaignInput,
  CampaignListAnswer, CampaignListQuery, Channel, ChannelInput, FraudExportQuery, ProviderViewInfo, Source, SourceInput,
} from '../schemas/acquisition.ts';
import { NamedInput } from '../schemas/common.ts';
import { ep, none } from './define.ts';

const APPS = '/apps/:appId/acquisition';
const CATALOGUE = 'route:/admin/providers';

export const acquisitionEndpoints = {
  campaigns: ep({
    method: 'GET', path: `${APPS}/campaigns`, auth: 'ui:apptracker.view', query: CampaignListQuery, response: CampaignListAnswer,
    summary: "The app's campaigns (scope current|all, owner me|all, optionally one account provider's) and, with startDay and endDay, each one's figures over that range",
  }),
  campaign: ep({ method: 'GET', path: `${APPS}/campaigns/:campaignId`, summary: 'A campaign', auth: 'ui:apptracker.view', response: { campaign: Campaign } }),
  createCampaign: ep({ method: 'POST', path: `${APPS}/campaigns`, summary: 'Create a campaign (a name in use: 30; an unknown source or channel: 10)', auth: 'ui:apptracker.create', request: CampaignInput, response: { campaign: Campaign } }),
  updateCampaign: ep({ method: 'PUT', path: `${APPS}/campaigns/:campaignId`, summary: 'Change a campaign', auth: { or: ['ui:apptracker.edit', 'ui:apptracker.edit:owner'] }, request: CampaignInput, response: { campaign: Campaign } }),
  cloneCampaign: ep({ method: 'POST', path: `${APPS}/campaigns/:campaignId/clone`, summary: 'Copy a campaign under a new name (its links are not copied)', auth: 'ui:apptracker.clone', request: NamedInput, response: { campaign: Campaign } }),
  deleteCampaign: ep({ method: 'DELETE', path: `${APPS}/campaigns/:campaignId`, summary: 'Delete a campaign; its links stop answering (inactive) in the same transaction', auth: { or: ['ui:apptracker.delete', 'ui:apptracker.delete:owner'] }, response: none }),
  campaignsDownload: ep({ method: 'GET', path: `${APPS}/campaigns.csv`, summary: 'The campaign list with its figures over the range, as CSV (the list\'s query)', auth: 'ui:apptracker.download', query: CampaignDownloadQuery, response: none }),
  fraudExport: ep({
    method: 'GET', path: `${APPS}/fraud.csv`, auth: 'ui:apptracker.exportFraud', query: FraudExportQuery, response: none,
    summary: 'Suspicious clicks and installs over a range as CSV, each with its reason: bot, too many clicks per IP or device within an hour, click-to-install time too short (shared acquisition/fraud.ts)',
  }),
  providerView: ep({ method: 'GET', path: `${APPS}/provider-view`, summary: 'The account provider the user is a member of, or the providers they may pick', auth: 'route:/acquisition/apptracker-provider-view', response: { view: ProviderViewInfo } }),

  sources: ep({ method: 'GET', path: `${APPS}/sources`, summary: "The app's traffic sources with their attribution settings", auth: { or: ['ui:sources.view', 'ui:apptracker.view'] }, response: { sources: z.array(Source) } }),
  createSource: ep({ method: 'POST', path: `${APPS}/sources`, summary: 'Create a source (a name in use: 30; an unknown provider: 10)', auth: 'ui:sources.create', request: SourceInput, response: { source: Source } }),
  updateSource: ep({ method: 'PUT', path: `${APPS}/sources/:sourceId`, summary: 'Change a source', auth: 'ui:sources.edit', request: SourceInput, response: { source: Source } }),
  deleteSource: ep({ method: 'DELETE', path: `${APPS}/sources/:sourceId`, summary: 'Delete a source without live campaigns (with some: 409)', auth: 'ui:sources.delete', response: none }),

  channels: ep({ method: 'GET', path: `${APPS}/channels`, summary: "The app's channels with their campaign counts", auth: 'ui:apptracker.view', response: { channels: z.array(Channel) } }),
  createChannel: ep({ method: 'POST', path: `${APPS}/channels`, summary: 'Create a channel (a name in use: 30)', auth: 'ui:apptracker.create', request: ChannelInput, response: { channel: Channel } }),
  updateChannel: ep({ method: 'PUT', path: `${APPS}/channels/:channelId`, summary: 'Rename a channel', auth: 'ui:apptracker.edit', request: ChannelInput, response: { channel: Channel } }),
  deleteChannel: ep({ method: 'DELETE', path: `${APPS}/channels/:channelId`, summary: 'Delete a channel; its campaigns stay, without a channel', auth: 'ui:apptracker.delete', response: none }),

  accountProviders: ep({ method: 'GET', path: '/account/providers', summary: "The account's providers with their members (a provider member sees only their own)", auth: 'route:/acquisition/providers', response: { providers: z.array(AccountProvider) } }),
  createAccountProvider: ep({ method: 'POST', path: '/account/providers', summary: 'Add a provider, from the catalogue or custom, with its postback URL templates and members', auth: 'ui:sources.create', request: AccountProviderInput, response: { provider: AccountProvider } }),
  updateAccountProvider: ep({ method: 'PUT', path: '/account/providers/:providerId', summary: 'Change a provider and its members', auth: 'ui:sources.edit', request: AccountProviderInput, response: { provider: AccountProvider } }),
  deleteAccountProvider: ep({ method: 'DELETE', path: '/account/providers/:providerId', summary: 'Delete a provider (with active links on its campaigns: 20003)', auth: 'ui:sources.delete', response: none }),
  adProviderCatalogue: ep({ method: 'GET', path: '/account/provider-catalogue', summary: 'The ad provider catalogue, to connect a provider from', auth: 'route:/acquisition/providers', response: { providers: z.array(AdProvider) } }),

  adProviders: ep({ method: 'GET', path: '/admin/providers', summary: 'The platform catalogue of ad providers by kind (platform administrators)', auth: CATALOGUE, response: { providers: z.array(AdProvider) } }),
  createAdProvider: ep({ method: 'POST', path: '/admin/providers', summary: 'Add a catalogue entry (a name in use: 30)', auth: CATALOGUE, request: AdProviderInput, response: { provider: AdProvider } }),
  updateAdProvider: ep({ method: 'PUT', path: '/admin/providers/:adProviderId', summary: 'Change a catalogue entry', auth: CATALOGUE, request: AdProviderInput, response: { provider: AdProvider } }),
  deleteAdProvider: ep({ method: 'DELETE', path: '/admin/providers/:adProviderId', summary: 'Delete a catalogue entry (an account provider from it with active links on its campaigns: 20003)', auth: CATALOGUE, response: none }),
} as const;
