import { join } from 'node:path';

/** Where `npm run fuzz` saves its findings (an input and its provenance), replayed by fuzz.test.ts. */
export const FOUND_DIR = join(import.meta.dirname, '../fixtures/hostile/found');
