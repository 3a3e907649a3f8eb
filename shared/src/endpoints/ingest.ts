/** The ingestion API's endpoints (authenticated by the app key, see schemas/ingest.ts). */
import { z } from 'zod';
import { ep } from './define.ts';
import { IdentifyRequest, IngestBatch, IngestBatchAnswer, ProfileAnswer, ProfileRequest } from '../schemas/ingest.ts';

export const ingestEndpoints = {
  ingestBatch: ep({ method: 'POST', path: '/ingest/v1/batch', summary: 'Send a batch of events and message interactions of one device', auth: 'appKey', request: IngestBatch, response: IngestBatchAnswer }),
  ingestIdentify: ep({ method: 'POST', path: '/ingest/v1/identify', summary: 'Tie a device to a customer id, merging an anonymous person into the known one', auth: 'appKey', request: IdentifyRequest, response: { personId: z.string(), merged: z.boolean() } }),
  ingestProfile: ep({ method: 'POST', path: '/ingest/v1/profile', summary: "Update the device's person: profile fields and tag values", auth: 'appKey', request: ProfileRequest, response: ProfileAnswer }),
} as const;
