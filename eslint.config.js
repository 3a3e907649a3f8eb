import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { gdPlugin } from './scripts/eslint/clientLayers.js';

/**
 * Outgoing connections from the API (api-server/CONTEXT.md "Outgoing connections"): only the net
 * module (api-server/src/net) opens them, checking every address at connect time. Elsewhere in
 * api-server/src these modules and globals are refused (type imports are fine); `except` names
 * the ones a file may still use, each for a connection to infrastructure the operator configures.
 */
const OUTGOING_MODULES = [
  'http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'dns/promises',
].flatMap((m) => [m, `node:${m}`]).concat(['undici', 'ws', 'basic-ftp', 'ssh2', 'ssh2-sftp-client', 'nodemailer', '@hocuspocus/provider', 'node-fetch', 'axios', 'got']);
const OUTGOING_GLOBALS = ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource'];
const NET_MESSAGE = 'Outgoing connections go through api-server/src/net (guardedRequest, connectFtp/connectSftp, guardedConnect), which checks every address when it connects.';
function outgoingRules(except = []) {
  return {
    '@typescript-eslint/no-restricted-imports': ['error', {
      paths: [
        ...OUTGOING_MODULES.filter((m) => !except.includes(m)).map((name) => ({ name, message: NET_MESSAGE, allowTypeImports: true })),
        { name: 'aws4fetch', importNames: ['AwsClient'], message: `${NET_MESSAGE} (AwsV4Signer signs without connecting.)`, allowTypeImports: true },
      ],
    }],
    'no-restricted-globals': ['error', ...OUTGOING_GLOBALS.filter((g) => !except.includes(g)).map((name) => ({ name, message: NET_MESSAGE }))],
    'no-restricted-properties': ['error', ...OUTGOING_GLOBALS.filter((g) => !except.includes(g)).flatMap((property) =>
      ['globalThis', 'window', 'global', 'self'].map((object) => ({ object, property, message: NET_MESSAGE })))],
  };
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '**/test-results/**', '**/playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'warn',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, gd: gdPlugin },
    rules: { ...reactHooks.configs.recommended.rules, 'gd/client-layers': 'error' },
  },
  {
    files: ['api-server/src/**/*.ts'],
    ignores: ['api-server/src/net/**', '**/*.test.ts', '**/testing/**'],
    rules: outgoingRules(),
  },
  // Listens for requests; opens no connection.
  { files: ['api-server/src/server.ts'], rules: outgoingRules(['http', 'node:http']) },
  // The operator's SMTP relay (SMTP_URL).
  { files: ['api-server/src/mail/worker.ts'], rules: outgoingRules(['nodemailer']) },
  // Account mail providers: nodemailer over sockets made by net guardedConnect (getSocket); node:tls
  // only for its root certificates (plus OUTGOING_EXTRA_CA_FILE) when TLS upgrades that socket.
  { files: ['api-server/src/features/mailProviders/transport.ts'], rules: outgoingRules(['nodemailer', 'node:tls']) },
  // The operator's sync server (SYNC_URL).
  { files: ['api-server/src/features/documents/liveDocs.ts'], rules: outgoingRules(['ws', '@hocuspocus/provider']) },
  // The demo data generator sends to this product's own ingestion API.
  { files: ['api-server/src/seed/behaviour.ts'], rules: outgoingRules(['fetch']) },
  {
    // Tests state what they expect; a missing value fails the test either way.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', 'tests/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A skipped or focused test cannot fail: none may be committed.
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.name=/^(it|test|describe|suite)$/][property.name=/^(skip|only|todo|skipIf|runIf|fixme)$/]",
        message: 'Skipped or focused tests cannot fail: remove .skip/.only/.todo/.skipIf/.runIf/.fixme.',
      }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
