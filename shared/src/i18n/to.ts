/**
 * The third interface language, `to`. No Tongan translation has been commissioned yet: the
 * catalogue translates the language names and falls back to English for every other key
 * (i18next `fallbackLng: 'en'`). Translators fill this object; the compiler checks its keys.
 */
import type { Catalogue } from './en.ts';
import { behaviourTo } from './behaviour/to.ts';
import { tagsTo } from './tags/to.ts';
import { peopleTo } from './people/to.ts';
import { segmentsTo } from './segments/to.ts';
import { importsTo } from './imports/to.ts';
import { homeTo } from './home/to.ts';
import { messagesTo } from './messages/to.ts';
import { messageAnalyticsTo } from './messageAnalytics/to.ts';
import { webPluginTo } from './webPlugin/to.ts';
import { messageEditorTo } from './messageEditor/to.ts';
import { messageSettingsTo } from './messageSettings/to.ts';
import { messageWhatIfTo } from './messageWhatIf/to.ts';
import { mailProvidersTo } from './mailProviders/to.ts';
import { integrationsTo } from './integrations/to.ts';
import { pushCredentialsTo } from './pushCredentials/to.ts';
import { webPushTo } from './webPush/to.ts';
import { abAnalysisTo } from './abAnalysis/to.ts';
import { rulesTo } from './rules/to.ts';
import { reportsTo } from './reports/to.ts';
import { journeyRunTo } from './journeyRun/to.ts';
import { cohortsTo } from './cohorts/to.ts';
import { funnelsTo } from './funnels/to.ts';
import { skanTo } from './skan/to.ts';
import { dashboardsTo } from './dashboards/to.ts';
import { acquisitionTo } from './acquisition/to.ts';
import { linksTo } from './links/to.ts';
import { landingsTo } from './landings/to.ts';
import { acqReportsTo } from './acqReports/to.ts';
import { trackersTo } from './trackers/to.ts';
import { audienceShareTo } from './audienceShare/to.ts';
import { walletTo } from './wallet/to.ts';
import { categoriesTo } from './categories/to.ts';
import { skudoTo } from './skudo/to.ts';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends string ? string : DeepPartial<T[K]> };
export const to: DeepPartial<Catalogue> = {
  language: { en: 'Lea faka-Pilitānia', es: 'Lea faka-Sipeini', to: 'Lea faka-Tonga' },
  ...behaviourTo,
  ...tagsTo,
  ...peopleTo,
  ...segmentsTo,
  ...importsTo,
  ...homeTo,
  ...messagesTo,
  ...messageAnalyticsTo,
  ...webPluginTo,
  ...messageEditorTo,
  ...messageSettingsTo,
  ...messageWhatIfTo,
  ...mailProvidersTo,
  ...integrationsTo,
  ...pushCredentialsTo,
  ...webPushTo,
  ...abAnalysisTo,
  ...rulesTo,
  ...reportsTo,
  ...journeyRunTo,
  ...cohortsTo,
  ...funnelsTo,
  ...skanTo,
  ...dashboardsTo,
  ...acquisitionTo,
  ...linksTo,
  ...landingsTo,
  ...acqReportsTo,
  ...trackersTo,
  ...audienceShareTo,
  ...walletTo,
  ...categoriesTo,
  ...skudoTo,
};
