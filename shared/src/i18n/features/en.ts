/**
 * English texts of the feature screens, one file per feature folder. Not part of the login
 * page's bundle: the web app adds them after sign-in (client/src/i18n/i18n.ts). A new feature
 * folder is spread here (and in ../es.ts and ../to.ts).
 */
import { behaviourEn } from '../behaviour/en.ts';
import { journeysEn } from '../journeys/en.ts';
import { importsEn } from '../imports/en.ts';
import { peopleEn } from '../people/en.ts';
import { segmentsEn } from '../segments/en.ts';
import { tagsEn } from '../tags/en.ts';
import { homeEn } from '../home/en.ts';
import { messagesEn } from '../messages/en.ts';
import { messageAnalyticsEn } from '../messageAnalytics/en.ts';
import { webPluginEn } from '../webPlugin/en.ts';
import { messageEditorEn } from '../messageEditor/en.ts';
import { messageSettingsEn } from '../messageSettings/en.ts';
import { messageWhatIfEn } from '../messageWhatIf/en.ts';
import { mailProvidersEn } from '../mailProviders/en.ts';
import { integrationsEn } from '../integrations/en.ts';
import { pushCredentialsEn } from '../pushCredentials/en.ts';
import { webPushEn } from '../webPush/en.ts';
import { abAnalysisEn } from '../abAnalysis/en.ts';
import { rulesEn } from '../rules/en.ts';
import { reportsEn } from '../reports/en.ts';
import { journeyRunEn } from '../journeyRun/en.ts';
import { cohortsEn } from '../cohorts/en.ts';
import { funnelsEn } from '../funnels/en.ts';
import { dashboardsEn } from '../dashboards/en.ts';
import { skanEn } from '../skan/en.ts';
import { acquisitionEn } from '../acquisition/en.ts';
import { linksEn } from '../links/en.ts';
import { landingsEn } from '../landings/en.ts';
import { acqReportsEn } from '../acqReports/en.ts';
import { trackersEn } from '../trackers/en.ts';
import { audienceShareEn } from '../audienceShare/en.ts';
import { walletEn } from '../wallet/en.ts';
import { categoriesEn } from '../categories/en.ts';
import { skudoEn } from '../skudo/en.ts';

export const featuresEn = {
  ...behaviourEn,
  ...journeysEn,
  ...tagsEn,
  ...peopleEn,
  ...segmentsEn,
  ...importsEn,
  ...homeEn,
  ...messagesEn,
  ...messageAnalyticsEn,
  ...webPluginEn,
  ...messageEditorEn,
  ...messageSettingsEn,
  ...messageWhatIfEn,
  ...mailProvidersEn,
  ...integrationsEn,
  ...pushCredentialsEn,
  ...webPushEn,
  ...abAnalysisEn,
  ...rulesEn,
  ...reportsEn,
  ...journeyRunEn,
  ...cohortsEn,
  ...funnelsEn,
  ...dashboardsEn,
  ...skanEn,
  ...acquisitionEn,
  ...linksEn,
  ...landingsEn,
  ...acqReportsEn,
  ...trackersEn,
  ...audienceShareEn,
  ...walletEn,
  ...categoriesEn,
  ...skudoEn,
};
