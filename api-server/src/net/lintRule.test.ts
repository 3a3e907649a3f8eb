/**
 * The lint rule that keeps outgoing connections in this module (eslint.config.js `outgoingRules`):
 * elsewhere in api-server/src, http/https/net/tls/dns/undici/ws/FTP/SSH clients and the fetch,
 * WebSocket, XMLHttpRequest and EventSource globals are refused; type imports, this module and
 * tests are not; the files that reach operator-configured infrastructure keep only their one
 * client. And no file of api-server/src breaks it today.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// Only the restriction rules, without type information (they need none): fast.
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => /restricted/.test(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

const CODE = [
  "import http from 'node:http';",
  "import type { BlockList } from 'node:net';",
  "import { AwsClient } from 'aws4fetch';",
  "import { AwsV4Signer } from 'aws4fetch';",
  "import { connect } from 'tls';",
  'export const a = (b: BlockList) => [http, b, AwsClient, AwsV4Signer, connect];',
  "export const c = () => [fetch('https://x.example'), globalThis.fetch('https://y.example'), new WebSocket('wss://z.example')];",
].join('\n');

async function refusedLines(filePath: string): Promise<number[]> {
  const [result] = await eslint.lintText(CODE, { filePath });
  expect(result?.messages.filter((m) => !m.ruleId)).toEqual([]);
  return (result?.messages ?? []).filter((m) => m.ruleId && /restricted/.test(m.ruleId)).map((m) => m.line);
}

describe('outgoing connections lint rule', () => {
  it('refuses outgoing clients in feature code, type imports and the signer apart', async () => {
    expect(await refusedLines('api-server/src/features/imports/run.ts')).toEqual([1, 3, 5, 7, 7, 7]);
  });

  it('lets the net module and tests open connections', async () => {
    expect(await refusedLines('api-server/src/net/http.ts')).toEqual([]);
    expect(await refusedLines('api-server/src/features/imports/imports.test.ts')).toEqual([]);
    expect(await refusedLines('api-server/src/features/imports/testing/servers.ts')).toEqual([]);
  });

  it('lets an infrastructure file keep only its own client', async () => {
    // The demo generator may fetch its own API (fetch, globalThis.fetch), and open nothing else (WebSocket).
    expect(await refusedLines('api-server/src/seed/behaviour.ts')).toEqual([1, 3, 5, 7]);
  });

  it('finds nothing in api-server/src today', { timeout: 60_000 }, async () => {
    const results = await eslint.lintFiles(['api-server/src/**/*.ts']);
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId && /restricted/.test(m.ruleId)).map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(found).toEqual([]);
    expect(results.length).toBeGreaterThan(100);
  });
});
