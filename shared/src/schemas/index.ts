export * from './envelope.ts';
export * from './auth.ts';
export * from './account.ts';
export * from './docs.ts';
export * from './journeys.ts';
export * from './ingest.ts';
export * from './tags.ts';
export * from './people.ts';
