export * from './names.ts';
export * from './schema.ts';
export * from './journeyDoc.ts';
export * from './segmentDoc.ts';
export * from './messageDoc.ts';
export * from './dashboardDoc.ts';
export * from './migrate.ts';
export * from './updateShape.ts';
