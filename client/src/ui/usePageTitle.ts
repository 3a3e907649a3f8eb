import { useEffect } from 'react';
import { translate } from '../i18n/i18n.ts';

/** Names the browser tab: "<title> · <product>". */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${translate('app.name')}`;
  }, [title]);
}
