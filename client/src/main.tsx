/**
 * Entry: checks the API configuration, picks the language (URL segment, saved choice, browser),
 * loads its catalogue, wires the API client to the session and renders. Every screen is lazy.
 * Production builds register the app-shell service worker (a reload works offline). The chunks a
 * signed-in address renders start loading at once (app/preload.ts).
 */
import '@mantine/core/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { ConfigurationError } from '@gd/shared/apiBase';
import { apiBaseUrl, configureApi } from './api/client.ts';
import { App } from './app/App.tsx';
import { ConfigErrorPage } from './app/ConfigErrorPage.tsx';
import { preloadSignedIn } from './app/preload.ts';
import { theme } from './app/theme.ts';
import { currentLanguage, initI18n } from './i18n/i18n.ts';
import { pageLanguage } from './i18n/languageStore.ts';
import { useSession } from './session/store.ts';
import { registerShellWorker } from './sync/shell/register.ts';

async function start(): Promise<void> {
  if (import.meta.env.PROD) registerShellWorker();
  // The chunks of the address start loading now, beside the catalogue and the session check.
  preloadSignedIn(window.location.pathname);
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);
  await initI18n(pageLanguage());

  try {
    apiBaseUrl();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    root.render(
      <MantineProvider theme={theme}>
        <ConfigErrorPage detail={error.message} />
      </MantineProvider>,
    );
    return;
  }

  configureApi({
    language: currentLanguage,
    apiVersion: () => useSession.getState().meta?.account.apiVersion ?? 2,
    hasSession: () => {
      const { status } = useSession.getState();
      return status === 'signedIn' || status === 'loading';
    },
    onSessionExpired: () => useSession.getState().expire(),
  });

  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
