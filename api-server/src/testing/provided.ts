/** What the integration global setup provides to test files (`inject('databaseUrl')`). */
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
export {};
