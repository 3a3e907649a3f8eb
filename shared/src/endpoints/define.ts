/** The shape of one endpoint of the HTTP contract, shared by the feature endpoint tables. */
import type { z } from 'zod';
import type { PermissionExpr } from '../permissions/can.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** 'appKey': the ingestion API, authenticated by the app's key (X-App-Key), never by a session. */
export type EndpointAuth = 'public' | 'session' | 'appKey' | PermissionExpr;

export interface Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodRawShape = z.ZodRawShape> {
  method: Method;
  path: string;
  summary: string;
  auth: EndpointAuth;
  request?: Req;
  /** For GET endpoints: the query string's schema (arrays as key[]=value, SPEC.md section 7). */
  query?: z.ZodType;
  response: Res;
}

export const ep = <const E extends Endpoint>(e: E) => e;
export const none = {} as const;
