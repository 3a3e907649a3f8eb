/**
 * Route table. Public pages (sign-in family) and the signed-in shell are lazy chunks, so the
 * login page loads only what it needs. Paths work with and without a language segment (the
 * segment is the router's basename, see i18n/LanguageRouter). /login and /register send a person
 * who arrived signed in home (features/auth/SignedOutOnly.tsx, a small guard kept in this chunk).
 */
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { ROUTES } from '@gd/shared/routes';
import { SignedOutOnly } from '../features/auth/SignedOutOnly.tsx';
import { RequireSession } from '../session/RequireSession.tsx';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { PageLoader } from '../ui/Loading.tsx';
import { loadHome, loadRouteScreen, loadShell } from './preload.ts';

const AuthLayout = lazy(() => import('../features/auth/AuthLayout.tsx'));
const LoginPage = lazy(() => import('../features/auth/LoginPage.tsx'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/ForgotPasswordPage.tsx'));
const AutoLoginPage = lazy(() => import('../features/auth/AutoLoginPage.tsx'));
const LogoutPage = lazy(() => import('../features/auth/LogoutPage.tsx'));
const SkudoLoginPage = lazy(() => import('../features/skudo/PartnerLoginPage.tsx'));
const SkudoOffersPage = lazy(() => import('../features/skudo/PartnerOffersPage.tsx'));
const LegacyPage = lazy(() => import('../features/auth/LegacyPage.tsx'));
const Shell = lazy(loadShell);
const RouteScreen = lazy(loadRouteScreen);
const HomePage = lazy(loadHome);
const NotFoundPage = lazy(() => import('../shell/NotFoundPage.tsx'));

export function AppRoutes() {
  return (
    <ErrorBoundary fullPage>
      <Suspense fallback={<PageLoader fullScreen />}>
        <Routes>
          <Route element={<AuthLayout />}>
            <Route element={<SignedOutOnly />}>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/register" element={<RegisterPage />} />
            </Route>
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/auto-login" element={<AutoLoginPage />} />
            <Route path="/logout" element={<LogoutPage />} />
            <Route path="/legacy" element={<LegacyPage />} />
            <Route path="/skudo/login" element={<SkudoLoginPage />} />
          </Route>
          <Route path="/skudo/offers" element={<SkudoOffersPage />} />
          <Route element={<RequireSession />}>
            <Route element={<Shell />}>
              <Route index element={<HomePage />} />
              {ROUTES.map((route) => (
                <Route key={route.path} path={route.path} element={<RouteScreen route={route} />} />
              ))}
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
