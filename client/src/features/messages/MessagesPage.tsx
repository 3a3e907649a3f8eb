/**
 * /communication/messaging: the list, one message (`?id=<messageId>`: its editor with the lifecycle
 * header), or the review of one of its submissions (`?id=<messageId>&review=<submissionId>`). Both
 * live on the same route (its key and permission stay '/communication/messaging'), so navigation,
 * "no access" and app switching (which drops the query) behave as for the list. The message and
 * review screens are their own chunk (Yjs, the provider, the editor).
 */
import { lazy } from 'react';
import { useSearchParams } from 'react-router';
import { useT } from '../../i18n/useT.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { MessageList } from './MessageList.tsx';

const MessageScreen = lazy(() => import('./MessageScreen.tsx'));
const ReviewScreen = lazy(() => import('./ReviewScreen.tsx'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function MessagesPage() {
  const { t } = useT();
  const [params] = useSearchParams();
  const id = params.get('id');
  const review = params.get('review');
  return (
    <AppScreen title={t('nav.messaging')} descriptionNoApp={t('messages.description')}>
      {() => {
        if (id && UUID.test(id) && review && UUID.test(review)) return <ReviewScreen key={`${id}:${review}`} messageId={id.toLowerCase()} submissionId={review.toLowerCase()} />;
        if (id && UUID.test(id)) return <MessageScreen key={id} messageId={id.toLowerCase()} />;
        return <MessageList />;
      }}
    </AppScreen>
  );
}
