/**
 * The screen of every route of shared ROUTES, by path (screens.test.ts checks none is missing).
 * Each is its own lazy chunk: `SCREEN_LOADERS` loads it (preload.ts starts the current address's
 * at boot), `SCREENS` renders it.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Screen = LazyExoticComponent<ComponentType>;
type Loader = () => Promise<{ default: ComponentType }>;

export const SCREEN_LOADERS: Readonly<Record<string, Loader>> = {
  '/main/dashboards': () => import('../features/dashboards/DashboardsPage.tsx'),
  '/main/executive': () => import('../features/executive/ExecutivePage.tsx'),
  '/user/account': () => import('../features/account/AccountPage.tsx'),
  '/user/account/apps': () => import('../features/account/AppsPage.tsx'),
  '/user/account/users': () => import('../features/account/UsersPage.tsx'),
  '/manage/tags': () => import('../features/tags/TagsPage.tsx'),
  '/manage/categories': () => import('../features/categories/CategoriesPage.tsx'),
  '/manage/communication-parameters': () => import('../features/messageSettings/CommunicationParametersPage.tsx'),
  '/manage/native-templates': () => import('../features/messageSettings/NativeTemplatesPage.tsx'),
  '/manage/mail-providers': () => import('../features/mailProviders/MailProvidersPage.tsx'),
  '/manage/integrations': () => import('../features/integrations/IntegrationsPage.tsx'),
  '/manage/import-task': () => import('../features/imports/ImportTasksPage.tsx'),
  '/user/account/test-devices': () => import('../features/account/TestDevicesPage.tsx'),
  '/user/app': () => import('../features/account/AppSettingsPage.tsx'),
  '/user/password': () => import('../features/user/PasswordPage.tsx'),
  '/user/plan': () => import('../features/account/PlanPage.tsx'),
  '/user/profile': () => import('../features/user/ProfilePage.tsx'),
  '/user/setup': () => import('../features/user/SetupPage.tsx'),
  '/user/welcome': () => import('../features/user/WelcomePage.tsx'),
  '/admin/roles': () => import('../features/admin/RolesPage.tsx'),
  '/admin/native-templates': () => import('../features/messageSettings/PlatformNativeTemplatesPage.tsx'),
  '/communication/journeys': () => import('../features/journeys/JourneysPage.tsx'),
  '/communication/rules': () => import('../features/rules/RulesPage.tsx'),
  '/main/reports': () => import('../features/reports/ReportsPage.tsx'),
  '/communication/messaging': () => import('../features/messages/MessagesPage.tsx'),
  '/communication/messaging/native_ad': () => import('../features/messages/NativeAdsPage.tsx'),
  '/communication/report': () => import('../features/messageAnalytics/MessageReportPage.tsx'),
  '/communication/performance-report': () => import('../features/messageAnalytics/PerformanceReportPage.tsx'),
  '/communication/messaging/plugin': () => import('../features/messagePlugin/PluginPage.tsx'),
  '/communication/report/ab-analysis': () => import('../features/abAnalysis/AbAnalysisPage.tsx'),
  '/communication/performance-histograms': () => import('../features/abAnalysis/HistogramsPage.tsx'),
  '/behavior/events': () => import('../features/analytics/EventsPage.tsx'),
  '/behavior/explore': () => import('../features/analytics/ExplorePage.tsx'),
  '/behavior/funnels': () => import('../features/funnels/FunnelsPage.tsx'),
  '/acquisition/links': () => import('../features/links/LinksPage.tsx'),
  '/acquisition/powlinks': () => import('../features/links/PowlinksPage.tsx'),
  '/manage/landings': () => import('../features/landings/LandingsPage.tsx'),
  '/acquisition/activity': () => import('../features/acqReports/ActivityPage.tsx'),
  '/acquisition/installs': () => import('../features/acqReports/InstallsPage.tsx'),
  '/acquisition/uninstalls': () => import('../features/acqReports/UninstallsPage.tsx'),
  '/acquisition/retargeting': () => import('../features/acqReports/RetargetingPage.tsx'),
  '/acquisition/assisted-installs': () => import('../features/acqReports/AssistedInstallsPage.tsx'),
  '/behavior/cohort': () => import('../features/cohorts/CohortPage.tsx'),
  '/manage/events': () => import('../features/analytics/ManageEventsPage.tsx'),
  '/behavior/people': () => import('../features/people/PeoplePage.tsx'),
  '/behavior/audiences': () => import('../features/segments/AudiencesPage.tsx'),
  '/acquisition/apptracker': () => import('../features/acquisition/ApptrackerPage.tsx'),
  '/acquisition/apptracker/channels': () => import('../features/acquisition/ChannelsPage.tsx'),
  '/acquisition/apptracker-provider-view': () => import('../features/acquisition/ProviderViewPage.tsx'),
  '/acquisition/providers': () => import('../features/acquisition/ProvidersPage.tsx'),
  '/admin/providers': () => import('../features/acquisition/AdminProvidersPage.tsx'),
  '/acquisition/skadnetwork': () => import('../features/skan/SkanPage.tsx'),
  '/acquisition/trackers': () => import('../features/trackers/TrackersPage.tsx'),
  '/products/wallet': () => import('../features/wallet/WalletPage.tsx'),
  '/products/skudo': () => import('../features/skudo/SkudoPage.tsx'),
};

export const SCREENS: Readonly<Record<string, Screen>> = Object.fromEntries(Object.entries(SCREEN_LOADERS).map(([path, load]) => [path, lazy(load)]));
