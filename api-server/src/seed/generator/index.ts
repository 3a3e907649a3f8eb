/** The behaviour data generator (demo activity, benchmarks, counts tests): see stream.ts. */
export { createWorld, deviceContext, generatePeople, generatePerson, DEFAULT_BATCH_SIZE, GENERATOR_VERSION } from './stream.ts';
export { ExpectedCounts, EMPTY_VALUE, localDayFormatter, type Dimension } from './expected.ts';
export { addDays } from './calendar.ts';
export type { AppOs } from './catalogue.ts';
export type { GeneratedBatch, GeneratedEvent, GeneratedPerson, GeneratedRequest, GeneratorConfig } from './types.ts';
