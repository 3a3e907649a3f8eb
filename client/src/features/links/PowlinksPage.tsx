/** /acquisition/powlinks: the app's powlinks, one link for every platform (LinkList). */
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { LinkList } from './LinkList.tsx';

export default function PowlinksPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.powlinks')} descriptionNoApp={t('links.powDescriptionNoApp')}>{(app) => <LinkList key={app.id} app={app} kind="powlink" />}</AppScreen>;
}
