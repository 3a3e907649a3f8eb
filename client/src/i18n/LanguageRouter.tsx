import { useEffect, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { followUrlLanguage, useLanguageRoute } from './languageStore.ts';

/** A router whose basename is the URL's language segment; remounted when the language changes. */
export function LanguageRouter({ children }: { children: ReactNode }) {
  const basename = useLanguageRoute((s) => s.basename);
  useEffect(() => {
    const onPop = () => void followUrlLanguage();
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return (
    <BrowserRouter key={basename} basename={basename}>
      {children}
    </BrowserRouter>
  );
}
