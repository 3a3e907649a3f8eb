/**
 * The frame of every app-scoped screen: its content for the current app, or, before the account has
 * an app, the screen's title with the "create an app first" state.
 */
import type { ReactNode } from 'react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { useCurrentApp } from '../session/store.ts';
import { PageHeader } from '../ui/PageHeader.tsx';
import { NeedsApp } from './NeedsApp.tsx';

export function AppScreen({ title, descriptionNoApp, children }: { title: string; descriptionNoApp: string; children: (app: MetaApp) => ReactNode }) {
  const app = useCurrentApp();
  if (app) return <>{children(app)}</>;
  return (
    <>
      <PageHeader title={title} description={descriptionNoApp} />
      <NeedsApp />
    </>
  );
}
