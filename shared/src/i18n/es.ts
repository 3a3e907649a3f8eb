import type { Catalogue } from './en.ts';
import { shellEs } from './core/shell.es.ts';
import { authEs } from './core/auth.es.ts';
import { accountEs } from './core/account.es.ts';
import { journeysEs } from './journeys/es.ts';
import { behaviourEs } from './behaviour/es.ts';
import { tagsEs } from './tags/es.ts';
import { peopleEs } from './people/es.ts';
import { segmentsEs } from './segments/es.ts';
import { importsEs } from './imports/es.ts';
import { homeEs } from './home/es.ts';
import { messagesEs } from './messages/es.ts';
import { messageAnalyticsEs } from './messageAnalytics/es.ts';
import { webPluginEs } from './webPlugin/es.ts';
import { messageEditorEs } from './messageEditor/es.ts';
import { messageSettingsEs } from './messageSettings/es.ts';
import { messageWhatIfEs } from './messageWhatIf/es.ts';
import { mailProvidersEs } from './mailProviders/es.ts';
import { integrationsEs } from './integrations/es.ts';
import { pushCredentialsEs } from './pushCredentials/es.ts';
import { webPushEs } from './webPush/es.ts';
import { abAnalysisEs } from './abAnalysis/es.ts';
import { rulesEs } from './rules/es.ts';
import { reportsEs } from './reports/es.ts';
import { journeyRunEs } from './journeyRun/es.ts';
import { cohortsEs } from './cohorts/es.ts';
import { funnelsEs } from './funnels/es.ts';
import { skanEs } from './skan/es.ts';
import { dashboardsEs } from './dashboards/es.ts';
import { acquisitionEs } from './acquisition/es.ts';
import { linksEs } from './links/es.ts';
import { landingsEs } from './landings/es.ts';
import { acqReportsEs } from './acqReports/es.ts';
import { trackersEs } from './trackers/es.ts';
import { audienceShareEs } from './audienceShare/es.ts';
import { walletEs } from './wallet/es.ts';
import { categoriesEs } from './categories/es.ts';
import { skudoEs } from './skudo/es.ts';

export const es: Catalogue = {
  ...shellEs,
  ...authEs,
  ...accountEs,
  ...journeysEs,
  ...behaviourEs,
  ...tagsEs,
  ...peopleEs,
  ...segmentsEs,
  ...importsEs,
  ...homeEs,
  ...messagesEs,
  ...messageAnalyticsEs,
  ...webPluginEs,
  ...messageEditorEs,
  ...messageSettingsEs,
  ...messageWhatIfEs,
  ...mailProvidersEs,
  ...integrationsEs,
  ...pushCredentialsEs,
  ...webPushEs,
  ...abAnalysisEs,
  ...rulesEs,
  ...reportsEs,
  ...journeyRunEs,
  ...cohortsEs,
  ...funnelsEs,
  ...skanEs,
  ...dashboardsEs,
  ...acquisitionEs,
  ...linksEs,
  ...landingsEs,
  ...acqReportsEs,
  ...trackersEs,
  ...audienceShareEs,
  ...walletEs,
  ...categoriesEs,
  ...skudoEs,
};
