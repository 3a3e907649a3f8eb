import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const MAIL_FILE = path.join(ROOT, 'test-results', `e2e-mail-${E2E_PORT}.jsonl`);
/** The built web app the e2e server serves; another directory lets two runs on different ports build apart. */
export const CLIENT_DIST = process.env.E2E_CLIENT_DIST ?? path.join(ROOT, 'client/dist');
export const DEMO_PASSWORD = 'Demo-pass-2026!';
