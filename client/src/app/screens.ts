/**
 * The built screens, by route path (shared ROUTES with `ready: true`). Each is its own lazy
 * chunk. A ready route without an entry here, and every route with `ready: false`, renders the
 * "coming soon" page.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Screen = LazyExoticComponent<ComponentType>;

export const SCREENS: Readonly<Record<string, Screen>> = {
  '/main/dashboards': lazy(() => import('../features/dashboards/DashboardsPage.tsx')),
  '/main/executive': lazy(() => import('../features/executive/ExecutivePage.tsx')),
  '/user/account': lazy(() => import('../features/account/AccountPage.tsx')),
  '/user/account/apps': lazy(() => import('../features/account/AppsPage.tsx')),
  '/user/account/users': lazy(() => import('../features/account/UsersPage.tsx')),
  '/manage/tags': lazy(() => import('../features/tags/TagsPage.tsx')),
  '/manage/communication-parameters': lazy(() => import('../features/messageSettings/CommunicationParametersPage.tsx')),
  '/manage/native-templates': lazy(() => import('../features/messageSettings/NativeTemplatesPage.tsx')),
  '/manage/mail-providers': lazy(() => import('../features/mailProviders/MailProvidersPage.tsx')),
  '/manage/import-task': lazy(() => import('../features/imports/ImportTasksPage.tsx')),
  '/user/account/test-devices': lazy(() => import('../features/account/TestDevicesPage.tsx')),
  '/user/app': lazy(() => import('../features/account/AppSettingsPage.tsx')),
  '/user/password': lazy(() => import('../features/user/PasswordPage.tsx')),
  '/user/plan': lazy(() => import('../features/account/PlanPage.tsx')),
  '/user/profile': lazy(() => import('../features/user/ProfilePage.tsx')),
  '/user/setup': lazy(() => import('../features/user/SetupPage.tsx')),
  '/user/welcome': lazy(() => import('../features/user/WelcomePage.tsx')),
  '/admin/roles': lazy(() => import('../features/admin/RolesPage.tsx')),
  '/admin/native-templates': lazy(() => import('../features/messageSettings/PlatformNativeTemplatesPage.tsx')),
  '/communication/journeys': lazy(() => import('../features/journeys/JourneysPage.tsx')),
  '/communication/rules': lazy(() => import('../features/rules/RulesPage.tsx')),
  '/main/reports': lazy(() => import('../features/reports/ReportsPage.tsx')),
  '/communication/messaging': lazy(() => import('../features/messages/MessagesPage.tsx')),
  '/communication/messaging/native_ad': lazy(() => import('../features/messages/NativeAdsPage.tsx')),
  '/communication/report': lazy(() => import('../features/messageAnalytics/MessageReportPage.tsx')),
  '/communication/performance-report': lazy(() => import('../features/messageAnalytics/PerformanceReportPage.tsx')),
  '/communication/messaging/plugin': lazy(() => import('../features/messagePlugin/PluginPage.tsx')),
  '/communication/report/ab-analysis': lazy(() => import('../features/abAnalysis/AbAnalysisPage.tsx')),
  '/communication/performance-histograms': lazy(() => import('../features/abAnalysis/HistogramsPage.tsx')),
  '/behavior/events': lazy(() => import('../features/analytics/EventsPage.tsx')),
  '/behavior/explore': lazy(() => import('../features/analytics/ExplorePage.tsx')),
  '/behavior/funnels': lazy(() => import('../features/funnels/FunnelsPage.tsx')),
  '/behavior/cohort': lazy(() => import('../features/cohorts/CohortPage.tsx')),
  '/manage/events': lazy(() => import('../features/analytics/ManageEventsPage.tsx')),
  '/behavior/people': lazy(() => import('../features/people/PeoplePage.tsx')),
  '/behavior/audiences': lazy(() => import('../features/segments/AudiencesPage.tsx')),
};
