/**
 * /manage/landings: the app's landing pages. The list (LandingList) and, with `?landing=<id>` (or
 * `?landing=new`), the block editor with its live preview and visits (LandingEditor), so an open
 * editor survives a reload and the browser's back button returns to the list.
 */
import { useSearchParams } from 'react-router';
import type { MetaApp } from '@gd/shared/schemas/account';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { LandingEditor } from './LandingEditor.tsx';
import { LandingList } from './LandingList.tsx';

export default function LandingsPage() {
  const { t } = useT();
  return <AppScreen title={t('nav.landings')} descriptionNoApp={t('landings.descriptionNoApp')}>{(app) => <Landings key={app.id} app={app} />}</AppScreen>;
}

function Landings({ app }: { app: MetaApp }) {
  const [params, setParams] = useSearchParams();
  const open = params.get('landing');
  if (open) {
    return (
      <LandingEditor
        key={open}
        app={app}
        landingId={open === 'new' ? null : open}
        onClose={() => setParams({})}
        onCreated={(id) => setParams({ landing: id }, { replace: true })}
      />
    );
  }
  return <LandingList app={app} onOpen={(id) => setParams({ landing: id ?? 'new' })} />;
}
