// A worker thread's entry: threads do not inherit the tsx loader of the runner, so this one
// registers it and then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
