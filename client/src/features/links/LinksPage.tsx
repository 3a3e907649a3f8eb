/** /acquisition/links: the app's tracking links (LinkList). */
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { LinkList } from './LinkList.tsx';

export default function LinksPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.links')} descriptionNoApp={t('links.descriptionNoApp')}>{(app) => <LinkList key={app.id} app={app} kind="tracking" />}</AppScreen>;
}
