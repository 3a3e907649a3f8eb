/**
 * Method and path of every endpoint, without schemas: what the browser client needs to address a
 * call. The full table (endpoints.ts) carries every feature's zod schemas, which must not weigh on
 * the login page, so the client reads method and path here and loads request schemas per group.
 *
 * The compiler requires exactly one entry per endpoint (`satisfies Record<EndpointName, ...>`), and
 * endpointRoutes.test.ts checks that each entry equals the method and path of endpoints.ts.
 */
import type { EndpointName } from './endpoints.ts';
import type { Method } from './endpoints/define.ts';

export interface EndpointRoute {
  readonly method: Method;
  readonly path: string;
}

export const endpointRoutes = {
  // Foundation (endpoints/core.ts)
  csrf: { method: 'GET', path: '/auth/csrf' },
  register: { method: 'POST', path: '/auth/register' },
  login: { method: 'POST', path: '/auth/login' },
  logout: { method: 'POST', path: '/auth/logout' },
  refresh: { method: 'POST', path: '/auth/refresh' },
  forgotPassword: { method: 'POST', path: '/auth/forgot-password' },
  resetPassword: { method: 'POST', path: '/auth/reset-password' },
  autoLogin: { method: 'POST', path: '/auth/auto-login' },
  meta: { method: 'GET', path: '/user/meta' },
  updateProfile: { method: 'PUT', path: '/user/profile' },
  changePassword: { method: 'PUT', path: '/user/password' },
  getAccount: { method: 'GET', path: '/account' },
  updateAccount: { method: 'PUT', path: '/account' },
  updatePlan: { method: 'PUT', path: '/account/plan' },
  listApps: { method: 'GET', path: '/apps' },
  createApp: { method: 'POST', path: '/apps' },
  updateApp: { method: 'PUT', path: '/apps/:appId' },
  deleteApp: { method: 'DELETE', path: '/apps/:appId' },
  rotateAppKey: { method: 'POST', path: '/apps/:appId/rotate-key' },
  listUsers: { method: 'GET', path: '/account/users' },
  addUser: { method: 'POST', path: '/account/users' },
  updateUser: { method: 'PUT', path: '/account/users/:userId' },
  deleteUser: { method: 'DELETE', path: '/account/users/:userId' },
  listTestDevices: { method: 'GET', path: '/apps/:appId/test-devices' },
  addTestDevice: { method: 'POST', path: '/apps/:appId/test-devices' },
  updateTestDevice: { method: 'PUT', path: '/apps/:appId/test-devices/:deviceId' },
  deleteTestDevice: { method: 'DELETE', path: '/apps/:appId/test-devices/:deviceId' },
  listRoles: { method: 'GET', path: '/user-roles' },
  putRole: { method: 'PUT', path: '/user-roles/:roleId' },
  deleteRole: { method: 'DELETE', path: '/user-roles/:roleId' },

  // Journeys and document tokens (endpoints/journeys.ts)
  docToken: { method: 'POST', path: '/docs/token' },
  listJourneys: { method: 'GET', path: '/apps/:appId/journeys' },
  createJourney: { method: 'POST', path: '/apps/:appId/journeys' },
  renameJourney: { method: 'PUT', path: '/apps/:appId/journeys/:journeyId' },
  assignJourney: { method: 'PUT', path: '/apps/:appId/journeys/:journeyId/assignee' },
  cloneJourney: { method: 'POST', path: '/apps/:appId/journeys/:journeyId/clone' },
  deleteJourney: { method: 'DELETE', path: '/apps/:appId/journeys/:journeyId' },
  launchJourney: { method: 'POST', path: '/apps/:appId/journeys/:journeyId/launch' },
  getJourneyVersion: { method: 'GET', path: '/apps/:appId/journeys/:journeyId/versions/:version' },
  stopJourney: { method: 'POST', path: '/apps/:appId/journeys/:journeyId/stop' },
  simulateJourney: { method: 'POST', path: '/apps/:appId/journeys/:journeyId/simulate' },

  // The journey engine's reads (endpoints/journeyRun.ts)
  journeyStepCounts: { method: 'GET', path: '/apps/:appId/journeys/:journeyId/step-counts' },
  journeyPersonSearch: { method: 'GET', path: '/apps/:appId/journeys/:journeyId/people' },
  personJourneys: { method: 'GET', path: '/apps/:appId/people/:personId/journeys' },

  // Behaviour analytics (endpoints/behaviour.ts)
  listEvents: { method: 'GET', path: '/apps/:appId/events' },
  eventTrend: { method: 'GET', path: '/apps/:appId/events/trend' },
  eventProperties: { method: 'GET', path: '/apps/:appId/events/properties' },
  explore: { method: 'GET', path: '/apps/:appId/explore' },
  listEventDefinitions: { method: 'GET', path: '/apps/:appId/event-definitions' },
  updateEventDefinition: { method: 'PUT', path: '/apps/:appId/event-definitions/:eventName' },
  setEventBreakdowns: { method: 'PUT', path: '/apps/:appId/event-definitions/:eventName/breakdowns' },
  retryEventBreakdown: { method: 'POST', path: '/apps/:appId/event-definitions/:eventName/breakdowns/retry' },

  // Funnels (endpoints/funnels.ts)
  funnel: { method: 'GET', path: '/apps/:appId/funnels/query' },
  queryFunnel: { method: 'POST', path: '/apps/:appId/funnels/query' },
  funnelPeople: { method: 'POST', path: '/apps/:appId/funnels/people' },
  saveFunnelAudience: { method: 'POST', path: '/apps/:appId/funnels/audience' },

  // People (endpoints/people.ts)
  searchPeople: { method: 'GET', path: '/apps/:appId/people' },
  getPerson: { method: 'GET', path: '/apps/:appId/people/:personId' },
  personTimeline: { method: 'GET', path: '/apps/:appId/people/:personId/events' },

  // Ingestion API (endpoints/ingest.ts)
  ingestBatch: { method: 'POST', path: '/ingest/v1/batch' },
  ingestIdentify: { method: 'POST', path: '/ingest/v1/identify' },
  ingestProfile: { method: 'POST', path: '/ingest/v1/profile' },

  // The SDK's messages (endpoints/sdkMessages.ts)
  sdkInApp: { method: 'GET', path: '/sdk/v1/in-app' },
  sdkNativeAds: { method: 'GET', path: '/sdk/v1/native-ads' },
  sdkRedeem: { method: 'POST', path: '/sdk/v1/redeem' },
  // Deferred deep links (endpoints/attribution.ts)
  deferredDeepLink: { method: 'POST', path: '/sdk/v1/deferred-link' },

  // Tags (endpoints/tags.ts)
  listTags: { method: 'GET', path: '/apps/:appId/tags' },
  createTag: { method: 'POST', path: '/apps/:appId/tags' },
  updateTag: { method: 'PUT', path: '/apps/:appId/tags/:tagId' },
  deleteTag: { method: 'DELETE', path: '/apps/:appId/tags/:tagId' },

  // Segments and audiences (endpoints/segments.ts)
  listSegments: { method: 'GET', path: '/apps/:appId/segments' },
  getSegment: { method: 'GET', path: '/apps/:appId/segments/:segmentId' },
  createSegment: { method: 'POST', path: '/apps/:appId/segments' },
  renameSegment: { method: 'PUT', path: '/apps/:appId/segments/:segmentId' },
  cloneSegment: { method: 'POST', path: '/apps/:appId/segments/:segmentId/clone' },
  deleteSegment: { method: 'DELETE', path: '/apps/:appId/segments/:segmentId' },
  estimateSegment: { method: 'POST', path: '/apps/:appId/segments/estimate' },
  segmentValues: { method: 'GET', path: '/apps/:appId/segment-values' },
  listAudiences: { method: 'GET', path: '/apps/:appId/audiences' },
  getAudience: { method: 'GET', path: '/apps/:appId/audiences/:audienceId' },
  createAudience: { method: 'POST', path: '/apps/:appId/audiences' },
  updateAudience: { method: 'PUT', path: '/apps/:appId/audiences/:audienceId' },
  refreshAudience: { method: 'POST', path: '/apps/:appId/audiences/:audienceId/refresh' },
  cloneAudience: { method: 'POST', path: '/apps/:appId/audiences/:audienceId/clone' },
  deleteAudience: { method: 'DELETE', path: '/apps/:appId/audiences/:audienceId' },

  // Imports and exports (endpoints/imports.ts)
  listImportTasks: { method: 'GET', path: '/apps/:appId/import-tasks' },
  getImportTask: { method: 'GET', path: '/apps/:appId/import-tasks/:taskId' },
  createImportTask: { method: 'POST', path: '/apps/:appId/import-tasks' },
  updateImportTask: { method: 'PUT', path: '/apps/:appId/import-tasks/:taskId' },
  uploadImportFile: { method: 'POST', path: '/apps/:appId/import-tasks/:taskId/upload' },
  retryImportTask: { method: 'POST', path: '/apps/:appId/import-tasks/:taskId/retry' },
  deleteImportTask: { method: 'DELETE', path: '/apps/:appId/import-tasks/:taskId' },
  listStorageIntegrations: { method: 'GET', path: '/apps/:appId/storage-integrations' },
  createStorageIntegration: { method: 'POST', path: '/apps/:appId/storage-integrations' },
  deleteStorageIntegration: { method: 'DELETE', path: '/apps/:appId/storage-integrations/:integrationId' },
  listAudienceExports: { method: 'GET', path: '/apps/:appId/audience-exports' },
  createAudienceExport: { method: 'POST', path: '/apps/:appId/audiences/:audienceId/exports' },
  downloadAudienceExport: { method: 'GET', path: '/apps/:appId/audience-exports/:exportId/download' },
  deleteAudienceExport: { method: 'DELETE', path: '/apps/:appId/audience-exports/:exportId' },

  // Home (endpoints/home.ts)
  getHomeSummary: { method: 'GET', path: '/apps/:appId/home/summary' },
  getHomeAttention: { method: 'GET', path: '/apps/:appId/home/attention' },

  // Messages (endpoints/messages.ts)
  listCampaigns: { method: 'GET', path: '/apps/:appId/campaigns' },
  listMessages: { method: 'GET', path: '/apps/:appId/messages' },
  createMessage: { method: 'POST', path: '/apps/:appId/messages' },
  getMessage: { method: 'GET', path: '/apps/:appId/messages/:messageId' },
  transitionMessage: { method: 'POST', path: '/apps/:appId/messages/:messageId/transition' },
  submitMessage: { method: 'POST', path: '/apps/:appId/messages/:messageId/submit' },
  approveMessage: { method: 'POST', path: '/apps/:appId/messages/:messageId/approve' },
  rejectMessage: { method: 'POST', path: '/apps/:appId/messages/:messageId/reject' },
  getSubmission: { method: 'GET', path: '/apps/:appId/messages/:messageId/submissions/:submissionId' },
  commentSubmission: { method: 'POST', path: '/apps/:appId/messages/:messageId/submissions/:submissionId/comments' },
  messageDelivery: { method: 'GET', path: '/apps/:appId/messages/:messageId/delivery' },
  messageHistory: { method: 'GET', path: '/apps/:appId/messages/:messageId/history' },
  cloneMessage: { method: 'POST', path: '/apps/:appId/messages/:messageId/clone' },
  assignMessage: { method: 'PUT', path: '/apps/:appId/messages/:messageId/owner' },
  getApprovalPolicy: { method: 'GET', path: '/account/approval-policy' },
  updateApprovalPolicy: { method: 'PUT', path: '/account/approval-policy' },

  // Message analytics (endpoints/messageAnalytics.ts)
  messageMetrics: { method: 'GET', path: '/apps/:appId/messages/:messageId/metrics' },
  messageReport: { method: 'GET', path: '/apps/:appId/message-report' },
  performanceReport: { method: 'GET', path: '/apps/:appId/performance-report' },
  exportPerformanceReport: { method: 'GET', path: '/apps/:appId/performance-report/export' },

  // Web plugin of messages (endpoints/webPlugin.ts)
  getWebPlugin: { method: 'GET', path: '/apps/:appId/web-plugin' },
  updateWebPlugin: { method: 'PUT', path: '/apps/:appId/web-plugin' },

  // Message what-if (endpoints/messageWhatIf.ts)
  messageWhatIf: { method: 'POST', path: '/apps/:appId/messages/what-if' },

  // Message settings: communication parameters and native ad templates (endpoints/messageSettings.ts)
  listCommunicationParameters: { method: 'GET', path: '/apps/:appId/communication-parameters' },
  createCommunicationParameter: { method: 'POST', path: '/apps/:appId/communication-parameters' },
  updateCommunicationParameter: { method: 'PUT', path: '/apps/:appId/communication-parameters/:parameterId' },
  deleteCommunicationParameter: { method: 'DELETE', path: '/apps/:appId/communication-parameters/:parameterId' },
  listNativeTemplates: { method: 'GET', path: '/apps/:appId/native-templates' },
  listNativeTemplateChoices: { method: 'GET', path: '/apps/:appId/native-template-choices' },
  createNativeTemplate: { method: 'POST', path: '/apps/:appId/native-templates' },
  updateNativeTemplate: { method: 'PUT', path: '/apps/:appId/native-templates/:templateId' },
  deleteNativeTemplate: { method: 'DELETE', path: '/apps/:appId/native-templates/:templateId' },
  listPlatformNativeTemplates: { method: 'GET', path: '/admin/native-templates' },
  createPlatformNativeTemplate: { method: 'POST', path: '/admin/native-templates' },
  updatePlatformNativeTemplate: { method: 'PUT', path: '/admin/native-templates/:templateId' },
  deletePlatformNativeTemplate: { method: 'DELETE', path: '/admin/native-templates/:templateId' },

  // Mail providers of the account (endpoints/mailProviders.ts)
  listMailProviders: { method: 'GET', path: '/mail-providers' },
  getMailProvider: { method: 'GET', path: '/mail-providers/:providerId' },
  createMailProvider: { method: 'POST', path: '/mail-providers' },
  updateMailProvider: { method: 'PUT', path: '/mail-providers/:providerId' },
  deleteMailProvider: { method: 'DELETE', path: '/mail-providers/:providerId' },
  activateMailProvider: { method: 'POST', path: '/mail-providers/:providerId/activate' },
  deactivateMailProvider: { method: 'POST', path: '/mail-providers/:providerId/deactivate' },
  testMailProvider: { method: 'POST', path: '/mail-providers/:providerId/test' },

  // Integrations of an app (endpoints/integrations.ts)
  integrations: { method: 'GET', path: '/apps/:appId/integrations' },
  integration: { method: 'GET', path: '/apps/:appId/integrations/:integrationId' },
  createIntegration: { method: 'POST', path: '/apps/:appId/integrations' },
  updateIntegration: { method: 'PUT', path: '/apps/:appId/integrations/:integrationId' },
  deleteIntegration: { method: 'DELETE', path: '/apps/:appId/integrations/:integrationId' },
  testIntegration: { method: 'POST', path: '/apps/:appId/integrations/:integrationId/test' },
  startIntegrationOAuth: { method: 'POST', path: '/apps/:appId/integrations/:integrationId/oauth/start' },
  disconnectIntegration: { method: 'POST', path: '/apps/:appId/integrations/:integrationId/disconnect' },

  // Push credentials of an app (endpoints/pushCredentials.ts)
  listPushCredentials: { method: 'GET', path: '/apps/:appId/push-credentials' },
  putApnsCredentials: { method: 'PUT', path: '/apps/:appId/push-credentials/apns' },
  putFcmCredentials: { method: 'PUT', path: '/apps/:appId/push-credentials/fcm' },
  setPushRateLimit: { method: 'PUT', path: '/apps/:appId/push-credentials/:provider/rate' },
  deletePushCredentials: { method: 'DELETE', path: '/apps/:appId/push-credentials/:provider' },

  // A/B analysis and performance histograms (endpoints/abAnalysis.ts)
  abAnalysis: { method: 'GET', path: '/apps/:appId/ab-analysis' },
  sendAbWinner: { method: 'POST', path: '/apps/:appId/messages/:messageId/send-winner' },
  performanceHistograms: { method: 'GET', path: '/apps/:appId/performance-histograms' },

  // Web push (endpoints/webPush.ts)
  getWebPush: { method: 'GET', path: '/apps/:appId/web-push' },
  putWebPush: { method: 'PUT', path: '/apps/:appId/web-push' },
  rotateWebPush: { method: 'POST', path: '/apps/:appId/web-push/rotate' },
  deleteWebPush: { method: 'DELETE', path: '/apps/:appId/web-push' },
  webPushKey: { method: 'GET', path: '/ingest/v1/web-push/key' },
  webPushSubscribe: { method: 'POST', path: '/ingest/v1/web-push/subscribe' },
  webPushUnsubscribe: { method: 'POST', path: '/ingest/v1/web-push/unsubscribe' },

  // Automatic rules (endpoints/rules.ts)
  listRules: { method: 'GET', path: '/apps/:appId/rules' },
  ruleChoices: { method: 'GET', path: '/apps/:appId/rule-choices' },
  getRule: { method: 'GET', path: '/apps/:appId/rules/:ruleId' },
  createRule: { method: 'POST', path: '/apps/:appId/rules' },
  updateRule: { method: 'PUT', path: '/apps/:appId/rules/:ruleId' },
  cloneRule: { method: 'POST', path: '/apps/:appId/rules/:ruleId/clone' },
  deleteRule: { method: 'DELETE', path: '/apps/:appId/rules/:ruleId' },
  activateRule: { method: 'POST', path: '/apps/:appId/rules/:ruleId/activate' },
  pauseRule: { method: 'POST', path: '/apps/:appId/rules/:ruleId/pause' },

  // Scheduled reports (endpoints/reports.ts)
  listReports: { method: 'GET', path: '/apps/:appId/reports' },
  getReport: { method: 'GET', path: '/apps/:appId/reports/:reportId' },
  createReport: { method: 'POST', path: '/apps/:appId/reports' },
  updateReport: { method: 'PUT', path: '/apps/:appId/reports/:reportId' },
  deleteReport: { method: 'DELETE', path: '/apps/:appId/reports/:reportId' },
  runReportNow: { method: 'POST', path: '/apps/:appId/reports/:reportId/run' },
  listReportRuns: { method: 'GET', path: '/apps/:appId/reports/:reportId/runs' },
  downloadReportRun: { method: 'GET', path: '/apps/:appId/reports/:reportId/runs/:runId/download' },

  // Cohorts (endpoints/cohorts.ts)
  cohort: { method: 'POST', path: '/apps/:appId/cohorts/query' },
  saveCohortAudience: { method: 'POST', path: '/apps/:appId/cohorts/audience' },

  // Dashboards and the executive view (endpoints/dashboards.ts)
  listDashboards: { method: 'GET', path: '/apps/:appId/dashboards' },
  getDashboard: { method: 'GET', path: '/apps/:appId/dashboards/:dashboardId' },
  createDashboard: { method: 'POST', path: '/apps/:appId/dashboards' },
  updateDashboard: { method: 'PUT', path: '/apps/:appId/dashboards/:dashboardId' },
  deleteDashboard: { method: 'DELETE', path: '/apps/:appId/dashboards/:dashboardId' },
  getExecutive: { method: 'GET', path: '/executive' },

  // SKAdNetwork (endpoints/skan.ts)
  skanPostback: { method: 'POST', path: '/skan/v4/postback' },
  skanSettings: { method: 'GET', path: '/apps/:appId/skan/settings' },
  updateSkanSettings: { method: 'PUT', path: '/apps/:appId/skan/settings' },
  updateSkanSchema: { method: 'PUT', path: '/apps/:appId/skan/schema' },
  skanPostbacks: { method: 'GET', path: '/apps/:appId/skan/postbacks' },
  skanFigures: { method: 'GET', path: '/apps/:appId/skan/figures' },

  // Acquisition: campaigns, sources, channels, providers (endpoints/acquisition.ts)
  campaigns: { method: 'GET', path: '/apps/:appId/acquisition/campaigns' },
  campaign: { method: 'GET', path: '/apps/:appId/acquisition/campaigns/:campaignId' },
  createCampaign: { method: 'POST', path: '/apps/:appId/acquisition/campaigns' },
  updateCampaign: { method: 'PUT', path: '/apps/:appId/acquisition/campaigns/:campaignId' },
  cloneCampaign: { method: 'POST', path: '/apps/:appId/acquisition/campaigns/:campaignId/clone' },
  deleteCampaign: { method: 'DELETE', path: '/apps/:appId/acquisition/campaigns/:campaignId' },
  campaignsDownload: { method: 'GET', path: '/apps/:appId/acquisition/campaigns.csv' },
  fraudExport: { method: 'GET', path: '/apps/:appId/acquisition/fraud.csv' },
  providerView: { method: 'GET', path: '/apps/:appId/acquisition/provider-view' },
  sources: { method: 'GET', path: '/apps/:appId/acquisition/sources' },
  createSource: { method: 'POST', path: '/apps/:appId/acquisition/sources' },
  updateSource: { method: 'PUT', path: '/apps/:appId/acquisition/sources/:sourceId' },
  deleteSource: { method: 'DELETE', path: '/apps/:appId/acquisition/sources/:sourceId' },
  channels: { method: 'GET', path: '/apps/:appId/acquisition/channels' },
  createChannel: { method: 'POST', path: '/apps/:appId/acquisition/channels' },
  updateChannel: { method: 'PUT', path: '/apps/:appId/acquisition/channels/:channelId' },
  deleteChannel: { method: 'DELETE', path: '/apps/:appId/acquisition/channels/:channelId' },
  accountProviders: { method: 'GET', path: '/account/providers' },
  createAccountProvider: { method: 'POST', path: '/account/providers' },
  updateAccountProvider: { method: 'PUT', path: '/account/providers/:providerId' },
  deleteAccountProvider: { method: 'DELETE', path: '/account/providers/:providerId' },
  adProviderCatalogue: { method: 'GET', path: '/account/provider-catalogue' },
  adProviders: { method: 'GET', path: '/admin/providers' },
  createAdProvider: { method: 'POST', path: '/admin/providers' },
  updateAdProvider: { method: 'PUT', path: '/admin/providers/:adProviderId' },
  deleteAdProvider: { method: 'DELETE', path: '/admin/providers/:adProviderId' },

  // Acquisition reports (endpoints/acqReports.ts)
  acqActivity: { method: 'GET', path: '/apps/:appId/acquisition/reports/activity' },
  acqInstalls: { method: 'GET', path: '/apps/:appId/acquisition/reports/installs' },
  acqUninstalls: { method: 'GET', path: '/apps/:appId/acquisition/reports/uninstalls' },
  acqRetargeting: { method: 'GET', path: '/apps/:appId/acquisition/reports/retargeting' },
  acqAssisted: { method: 'GET', path: '/apps/:appId/acquisition/reports/assisted' },
  // Links (endpoints/links.ts)
  links: { method: 'GET', path: '/apps/:appId/acquisition/links' },
  link: { method: 'GET', path: '/apps/:appId/acquisition/links/:linkId' },
  createLink: { method: 'POST', path: '/apps/:appId/acquisition/links' },
  updateLink: { method: 'PUT', path: '/apps/:appId/acquisition/links/:linkId' },
  deleteLink: { method: 'DELETE', path: '/apps/:appId/acquisition/links/:linkId' },
  linkClicks: { method: 'GET', path: '/apps/:appId/acquisition/links/:linkId/clicks' },
  // Audience shares to ad platforms (endpoints/audienceShare.ts)
  audienceShares: { method: 'GET', path: '/apps/:appId/audiences/:audienceId/shares' },
  audienceShareTargets: { method: 'GET', path: '/apps/:appId/audience-share-targets' },
  createAudienceShare: { method: 'POST', path: '/apps/:appId/audiences/:audienceId/shares' },
  syncAudienceShare: { method: 'POST', path: '/apps/:appId/audiences/:audienceId/shares/:shareId/sync' },
  deleteAudienceShare: { method: 'DELETE', path: '/apps/:appId/audiences/:audienceId/shares/:shareId' },
  // Landings (endpoints/landings.ts)
  landings: { method: 'GET', path: '/apps/:appId/landings' },
  landing: { method: 'GET', path: '/apps/:appId/landings/:landingId' },
  createLanding: { method: 'POST', path: '/apps/:appId/landings' },
  updateLanding: { method: 'PUT', path: '/apps/:appId/landings/:landingId' },
  publishLanding: { method: 'POST', path: '/apps/:appId/landings/:landingId/publish' },
  unpublishLanding: { method: 'POST', path: '/apps/:appId/landings/:landingId/unpublish' },
  deleteLanding: { method: 'DELETE', path: '/apps/:appId/landings/:landingId' },
  landingVisits: { method: 'GET', path: '/apps/:appId/landings/:landingId/visits' },
  // Provider postbacks and trackers (endpoints/postbacks.ts)
  trackers: { method: 'GET', path: '/apps/:appId/acquisition/trackers' },
  createTracker: { method: 'POST', path: '/apps/:appId/acquisition/trackers' },
  updateTracker: { method: 'PUT', path: '/apps/:appId/acquisition/trackers/:trackerId' },
  deleteTracker: { method: 'DELETE', path: '/apps/:appId/acquisition/trackers/:trackerId' },
  campaignPostbacks: { method: 'GET', path: '/apps/:appId/acquisition/campaigns/:campaignId/postbacks' },
  // Categories of the account and their assignments (endpoints/categories.ts)
  listCategories: { method: 'GET', path: '/categories' },
  createCategory: { method: 'POST', path: '/categories' },
  updateCategory: { method: 'PUT', path: '/categories/:categoryId' },
  deleteCategory: { method: 'DELETE', path: '/categories/:categoryId' },
  appCategories: { method: 'GET', path: '/category-assignments/apps' },
  categoryAssignments: { method: 'GET', path: '/apps/:appId/category-assignments' },
  setCategoryAssignments: { method: 'PUT', path: '/apps/:appId/category-assignments' },
  // Wallet passes and the account's signing settings (endpoints/wallet.ts)
  walletDesigns: { method: 'GET', path: '/apps/:appId/wallet/designs' },
  createWalletDesign: { method: 'POST', path: '/apps/:appId/wallet/designs' },
  updateWalletDesign: { method: 'PUT', path: '/apps/:appId/wallet/designs/:designId' },
  deleteWalletDesign: { method: 'DELETE', path: '/apps/:appId/wallet/designs/:designId' },
  walletCouponMessages: { method: 'GET', path: '/apps/:appId/wallet/coupon-messages' },
  walletPasses: { method: 'GET', path: '/apps/:appId/wallet/passes' },
  issueWalletPass: { method: 'POST', path: '/apps/:appId/wallet/passes' },
  voidWalletPass: { method: 'POST', path: '/apps/:appId/wallet/passes/:passId/void' },
  redeemWalletPass: { method: 'POST', path: '/apps/:appId/wallet/redeem' },
  walletSigning: { method: 'GET', path: '/wallet/signing' },
  putAppleWalletSigning: { method: 'PUT', path: '/wallet/signing/apple' },
  putGoogleWalletSigning: { method: 'PUT', path: '/wallet/signing/google' },
  deleteWalletSigning: { method: 'DELETE', path: '/wallet/signing/:provider' },
  // Skudo, the account's offer marketplace, and its partner pages (endpoints/skudo.ts)
  skudoProviders: { method: 'GET', path: '/skudo/providers' },
  createSkudoProvider: { method: 'POST', path: '/skudo/providers' },
  updateSkudoProvider: { method: 'PUT', path: '/skudo/providers/:skudoProviderId' },
  deleteSkudoProvider: { method: 'DELETE', path: '/skudo/providers/:skudoProviderId' },
  skudoCampaigns: { method: 'GET', path: '/skudo/campaigns' },
  createSkudoCampaign: { method: 'POST', path: '/skudo/campaigns' },
  updateSkudoCampaign: { method: 'PUT', path: '/skudo/campaigns/:skudoCampaignId' },
  deleteSkudoCampaign: { method: 'DELETE', path: '/skudo/campaigns/:skudoCampaignId' },
  skudoOffers: { method: 'GET', path: '/skudo/offers' },
  createSkudoOffer: { method: 'POST', path: '/skudo/offers' },
  updateSkudoOffer: { method: 'PUT', path: '/skudo/offers/:offerId' },
  deleteSkudoOffer: { method: 'DELETE', path: '/skudo/offers/:offerId' },
  createSkudoTrackingUrl: { method: 'POST', path: '/skudo/offers/:offerId/urls' },
  updateSkudoTrackingUrl: { method: 'PUT', path: '/skudo/tracking-urls/:trackingUrlId' },
  deleteSkudoTrackingUrl: { method: 'DELETE', path: '/skudo/tracking-urls/:trackingUrlId' },
  skudoPartners: { method: 'GET', path: '/skudo/partners' },
  createSkudoPartner: { method: 'POST', path: '/skudo/partners' },
  updateSkudoPartner: { method: 'PUT', path: '/skudo/partners/:partnerId' },
  deleteSkudoPartner: { method: 'DELETE', path: '/skudo/partners/:partnerId' },
  createSkudoAuthCode: { method: 'POST', path: '/skudo/partners/:partnerId/codes' },
  inviteSkudoPartner: { method: 'POST', path: '/skudo/partners/:partnerId/invite' },
  skudoPartnerLogin: { method: 'POST', path: '/skudo/partner/login' },
  skudoPartnerLogout: { method: 'POST', path: '/skudo/partner/logout' },
  skudoPartnerOffers: { method: 'GET', path: '/skudo/partner/offers' },
} as const satisfies Record<EndpointName, EndpointRoute>;

/** Fill `:param` placeholders of a path. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
