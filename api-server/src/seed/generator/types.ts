/** What the behaviour generator takes and gives: requests in the ingestion contract (shared/src/schemas/ingest.ts). */
import type { DeviceContext, IdentifyRequest, ProfileRequest } from '@gd/shared';
import type { AppOs } from './catalogue.ts';

export interface GeneratorConfig {
  /** Same seed, same config: the same people, events and ids, byte for byte. */
  seed: number;
  /** People simulated. Those with no activity inside the window send nothing. */
  people: number;
  /** Length of the window in local days, ending with `endDate`. */
  days: number;
  /** The window's last local day, YYYY-MM-DD, in `timezone`. */
  endDate: string;
  /** The app's time zone: activity follows local hours and days. */
  timezone: string;
  appOs: AppOs;
  /** Most events in one batch request (the ingestion limit is 500). Default 100. */
  batchSize?: number;
  /** Nothing later than this instant (epoch ms) is generated: a demo window that ends today. */
  now?: number;
}

/** An event as the generator sends it: `time` in epoch milliseconds. */
export interface GeneratedEvent {
  id: string;
  name: string;
  time: number;
  properties?: Record<string, string | number | boolean>;
  revenue?: number;
  currency?: string;
  source?: string;
  campaign?: string;
  sessionId?: string;
}

export interface GeneratedBatch { device: DeviceContext; events: GeneratedEvent[] }

export type GeneratedRequest =
  | { kind: 'batch'; body: GeneratedBatch }
  | { kind: 'identify'; body: IdentifyRequest }
  | { kind: 'profile'; body: ProfileRequest };

/** One simulated person's requests, in the order a device sends them (chronological). */
export interface GeneratedPerson {
  index: number;
  /** The customer id the person identifies with, or null for someone who never signs in. */
  customerId: string | null;
  /** SDK install ids, in install order (a reinstall gets a new one). */
  deviceIds: string[];
  requests: GeneratedRequest[];
}
