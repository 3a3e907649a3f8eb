/** The standalone sync server (`node sync-server/src/main.ts`) as a child process, for kill tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from './fixtures.ts';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

export interface ChildServer {
  port: number;
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output: () => string;
}

export function spawnServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, JWT_SECRET: TEST_SECRET, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+),"url":"([^"]+)".*"msg":"sync server listening"/.exec(output);
      if (match?.[1] && match[2]) resolve({ port: Number(match[1]), url: match[2], child, exited, output: () => output });
    });
    void exited.then((code) => reject(new Error(`sync server exited (${code}) before listening:\n${output}`)));
  });
}
