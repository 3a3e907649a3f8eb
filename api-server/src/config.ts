/** Configuration from the environment, validated once at start. See README "Configuration". */
import { z } from 'zod';

const Config = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  REDIS_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  PUBLIC_URL: z.string().url().optional(),
  /** Other hosts (comma-separated, host[:port]) this deployment answers on; mailed links may use them. */
  PUBLIC_HOSTS: z.string().optional(),
  /** Extra origins (comma-separated) whose pages may call the API with cookies; see http/cors.ts. */
  CORS_ORIGINS: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Growthdeck <no-reply@growthdeck.local>'),
  COOKIE_SECURE: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CLIENT_DIST: z.string().optional(),
  /** The built web SDK (sdk-web/dist), served at /sdk. */
  SDK_DIST: z.string().optional(),
  BUILD_HASH: z.string().default('dev'),
  /** WebSocket URL the browser uses for the sync server; default: ws(s)://<page host>/collab. */
  SYNC_PUBLIC_URL: z.string().optional(),
  /** The sync server as the API reaches it when it runs as its own process (docker-compose). */
  SYNC_URL: z.string().optional(),
  /** The link host's public base for short links (tracking links, powlinks); default: the API's own origin + /l. */
  LINK_BASE_URL: z.string().url().optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** Ingestion rate limit per app key and API process: requests per second, and the burst. */
  INGEST_RATE_PER_SECOND: z.coerce.number().positive().default(1000),
  INGEST_RATE_BURST: z.coerce.number().int().positive().default(2000),
  /** 'on': each ingestion batch waits for its WAL flush before the answer (see features/ingest/routes.ts). */
  INGEST_DURABLE_COMMIT: z.enum(['on', 'off']).default('on'),
  /** Outgoing requests (imports, ...): loopback addresses or ranges in 127.0.0.0/8 they may reach although private (tests only, e.g. 127.0.0.1; net/addresses.ts). */
  OUTGOING_ALLOW_LOOPBACK: z.string().optional(),
  /** Outgoing requests: a PEM file of extra certificate authorities trusted for https (besides the system's). */
  OUTGOING_EXTRA_CA_FILE: z.string().optional(),
  /** Web push: push service origins (host:port, comma-separated, loopback only) subscriptions may name although local and http (tests' loopback push service; features/delivery/push/webPush.ts). */
  WEB_PUSH_ALLOW_HOSTS: z.string().optional(),
  /** Background jobs (imports, exports) this process runs and queues; processes sharing a database and a queue share the work. */
  /** 'off': this API process does not send messages (separate `worker` processes do). */
  DELIVERY_IN_PROCESS: z.enum(['on', 'off']).default('on'),
  /** How long a delivery worker holds the outbox rows it leased; a killed worker's rows go again after it. */
  /** The standalone worker: 'delivery' runs only the message delivery loop, 'journeys' only the journey engine. */
  WORKER_ONLY: z.enum(['delivery', 'journeys']).optional(),
  /** 'off': this API process does not run journeys (separate `worker` processes do; tests turn it on where they test journeys). */
  JOURNEYS_IN_PROCESS: z.enum(['on', 'off']).default('on'),
  /** Journey entries moved per transaction (features/journeyRun/transition.ts). */
  JOURNEY_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** Tests only: the apps (comma-separated ids) whose journeys this process runs; absent: every app. */
  JOURNEY_APP_IDS: z.string().optional().transform((v) => (v ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined)),
  /** 'off': this API process does not run automatic rules (separate `worker` processes do; tests turn it on where they test the loop). */
  RULES_IN_PROCESS: z.enum(['on', 'off']).default('on'),
  /** 'off': this process does not send provider postbacks nor read their trigger inbox (another process does; tests turn it on where they test sending). */
  POSTBACKS_IN_PROCESS: z.enum(['on', 'off']).default('on'),
  /** 'off': this API process does not attribute installs to clicks (a `worker` process does; features/attribution/loop.ts). */
  ATTRIBUTION_IN_PROCESS: z.enum(['on', 'off']).default('on'),
  /** 'off': this API process does not refresh integrations' OAuth 2 tokens ahead of expiry (a `worker` process does; features/integrations/refresher.ts). */
  INTEGRATION_REFRESH_IN_PROCESS: z.enum(['on', 'off']).default('on'),
  /** 'off': this API process does not upload shared audiences to ad platforms (a `worker` process does; features/audienceShare/run.ts; tests turn it on where they test the loop). */
  AUDIENCE_SHARE_IN_PROCESS: z.enum(['on', 'off']).default('on'),
  DELIVERY_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  JOB_QUEUE: z.string().regex(/^[\w-]{1,64}$/).default('default'),
  /** SKAdNetwork: the public keys postbacks are verified with, JSON {"4.0"|"3.0"|"2.2"|"*": base64 DER or PEM P-256 key}; absent: Apple's published key (features/skan/verify.ts). */
  SKAN_PUBLIC_KEYS: z.string().optional(),
});
export type Config = z.infer<typeof Config>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
