import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('commits ingestion batches durably unless told otherwise (the SDK deletes what was acknowledged)', () => {
    expect(loadConfig({}).INGEST_DURABLE_COMMIT).toBe('on');
    expect(loadConfig({ INGEST_DURABLE_COMMIT: 'off' }).INGEST_DURABLE_COMMIT).toBe('off');
  });
  it('reads PUBLIC_HOSTS as given (links may use those hosts only)', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com', PUBLIC_HOSTS: 'eu.example.com' })).toMatchObject({ PUBLIC_URL: 'https://app.example.com', PUBLIC_HOSTS: 'eu.example.com' });
  });
});
