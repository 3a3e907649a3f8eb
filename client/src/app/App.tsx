import { MantineProvider } from '@mantine/core';
import { LanguageRouter } from '../i18n/LanguageRouter.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { theme } from './theme.ts';

export function App() {
  return (
    <MantineProvider theme={theme}>
      <LanguageRouter>
        <AppRoutes />
      </LanguageRouter>
    </MantineProvider>
  );
}
