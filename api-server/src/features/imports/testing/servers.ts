/**
 * Servers on loopback for the import tests, each speaking its real protocol: HTTPS with a
 * certificate made for the run (trusted by the API only through IMPORT_EXTRA_CA_FILE), FTP
 * (ftp-srv, with a login), and an S3 GetObject endpoint that checks the AWS signature V4 of every
 * request as S3 does (a request signed with another key answers 403 SignatureDoesNotMatch).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AwsV4Signer } from 'aws4fetch';
import { FtpSrv } from 'ftp-srv';
import { generate } from 'selfsigned';

type Route = string | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface HttpsFixture { url: string; caFile: string; requests: string[]; close(): Promise<void> }

/** An HTTPS server on 127.0.0.1 answering `routes` (path → body or handler); 404 otherwise. */
export async function startHttpsServer(routes: Record<string, Route>): Promise<HttpsFixture> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }],
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'gd-import-ca-'));
  const caFile = path.join(dir, 'ca.pem');
  await writeFile(caFile, pems.cert);
  const requests: string[] = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    requests.push(req.url ?? '');
    const route = routes[(req.url ?? '').split('?')[0] ?? ''];
    if (route === undefined) {
      res.writeHead(404).end('not found');
    } else if (typeof route === 'string') {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(route) }).end(route);
    } else route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`, caFile, requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export interface FtpFixture { port: number; close(): Promise<void> }

const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

/** An FTP server on 127.0.0.1 serving `root` to one user. */
export async function startFtpServer(opts: { root: string; user: string; password: string }): Promise<FtpFixture> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const server = new FtpSrv({ url: `ftp://127.0.0.1:${port}`, pasv_url: '127.0.0.1', pasv_min: 40000, pasv_max: 49999, anonymous: false, greeting: 'test', log: quiet });
  server.on('login', ({ username, password }, resolve, reject) => {
    if (username === opts.user && password === opts.password) resolve({ root: opts.root });
    else reject(new Error('login refused'));
  });
  await server.listen();
  return { port, close: async () => { await server.close(); } };
}

export interface S3Fixture { endpoint: string; requests: { path: string; signed: boolean }[]; close(): Promise<void> }

/** An S3-compatible GetObject endpoint on 127.0.0.1 (path-style: /bucket/key), checking signatures. */
export async function startS3Server(opts: { region: string; accessKeyId: string; secretAccessKey: string; objects: Record<string, string> }): Promise<S3Fixture> {
  const requests: S3Fixture['requests'] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const auth = req.headers.authorization ?? '';
      const date = String(req.headers['x-amz-date'] ?? '');
      const content = String(req.headers['x-amz-content-sha256'] ?? '');
      const signer = new AwsV4Signer({
        url: `http://${req.headers.host ?? ''}${req.url ?? ''}`, method: req.method ?? 'GET', service: 's3', region: opts.region, datetime: date,
        accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, headers: { 'x-amz-date': date, 'x-amz-content-sha256': content },
      });
      const expected = (await signer.sign()).headers.get('authorization');
      const signed = auth !== '' && auth === expected;
      requests.push({ path: req.url ?? '', signed });
      const xml = (code: string, status: number) => void res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
      const object = opts.objects[decodeURIComponent((req.url ?? '').slice(1))];
      if (!auth.startsWith('AWS4-HMAC-SHA256 ')) xml('AccessDenied', 403);
      else if (!signed) xml('SignatureDoesNotMatch', 403);
      else if (object === undefined) xml('NoSuchKey', 404);
      else res.writeHead(200, { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(object), etag: '"x"' }).end(object);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
