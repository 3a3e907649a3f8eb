/**
 * What the loopback ad platforms (meta.ts, googleAds.ts, tradeDesk.ts) share: an HTTP server on
 * 127.0.0.1, a log of the requests it took, and injected failures (the next N upload requests,
 * or all until healed, answer a given status and body, as the platform would when it is down or
 * refuses a token).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TakenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface PlatformAnswer { status: number; body: unknown }

export interface LoopbackPlatform {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: TakenRequest[];
  /** The next `times` requests whose path matches `path` (default: every upload) answer this instead. */
  fail(answer: PlatformAnswer, opts?: { times?: number; path?: RegExp }): void;
  /** Ends injected failures. */
  heal(): void;
  /** Answers nothing until `release()` (a run can then be seen while it waits on the platform). */
  hold(): void;
  release(): void;
  /** Resolves once at least `n` requests arrived (answered or held). */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

type Handler = (req: TakenRequest, url: URL) => PlatformAnswer;

export async function startLoopbackPlatform(handle: Handler, uploadPath: RegExp): Promise<LoopbackPlatform> {
  const requests: TakenRequest[] = [];
  let failure: { answer: PlatformAnswer; times: number; path: RegExp } | null = null;
  let held: (() => void)[] | null = null;
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const taken: TakenRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(taken);
      for (const w of waiting.filter((x) => requests.length >= x.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      const respond = () => answerWith(taken, url, res);
      if (held) held.push(respond);
      else respond();
    });
  });
  const answerWith = (taken: TakenRequest, url: URL, res: ServerResponse) => {
    let answer: PlatformAnswer;
    if (failure && failure.times > 0 && failure.path.test(url.pathname)) {
      failure.times--;
      answer = failure.answer;
    } else {
      try {
        answer = handle(taken, url);
      } catch (error) {
        answer = { status: 500, body: { error: { message: error instanceof Error ? error.message : String(error) } } };
      }
    }
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    fail(answer, opts = {}) {
      failure = { answer, times: opts.times ?? Number.POSITIVE_INFINITY, path: opts.path ?? uploadPath };
    },
    heal() {
      failure = null;
    },
    hold() {
      held ??= [];
    },
    release() {
      const pending = held ?? [];
      held = null;
      for (const respond of pending) respond();
    },
    arrived: (n) => (requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => { waiting.push({ n, resolve }); })),
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/** The request's JSON body, or undefined when it is not JSON. */
export function jsonBody(req: TakenRequest): unknown {
  try {
    return JSON.parse(req.body) as unknown;
  } catch {
    return undefined;
  }
}

export const HEX64 = /^[0-9a-f]{64}$/;
