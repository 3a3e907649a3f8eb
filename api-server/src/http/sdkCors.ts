/**
 * CORS for the endpoints apps' pages call with their app key (ingestion, SDK messages, web push
 * subscriptions): any origin, no cookies (the app key is the credential), the app key header
 * allowed, Retry-After readable, preflights answered for a day, nothing cached.
 */
import type { RequestHandler } from 'express';
import { APP_KEY_HEADER } from '@gd/shared';

export function sdkCors(methods: string): RequestHandler {
  return (req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', `content-type, ${APP_KEY_HEADER}`);
    res.setHeader('Access-Control-Allow-Methods', `${methods}, OPTIONS`);
    res.setHeader('Access-Control-Max-Age', '86400');
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'OPTIONS') return void res.status(204).end();
    next();
  };
}
