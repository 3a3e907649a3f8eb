/**
 * /communication/journeys: the list, or one journey's editor when the address says `?id=<journeyId>`.
 * The editor lives on the same route (the route key and its permission stay
 * '/communication/journeys'), so the navigation, "no access" and app switching (which drops the
 * query) behave as for the list. The editor is its own chunk (React Flow, Yjs, the provider).
 */
import { lazy } from 'react';
import { useSearchParams } from 'react-router';
import { JourneyList } from './JourneyList.tsx';

const JourneyEditor = lazy(() => import('./JourneyEditor.tsx'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function JourneysPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  if (id && UUID.test(id)) return <JourneyEditor key={id} journeyId={id.toLowerCase()} />;
  return <JourneyList />;
}
