// Entry point: starts the decoder worker first, then loads the page (main.ts, a chunk of its own).
// The worker then loads its code and compiles its WASM while the page loads and builds its view,
// on the other core: a file dropped (or opened from the operating system) as the page appears
// does not wait for a worker that has only begun to start.
import { startDecoder } from './decoder-start.ts';
import './app.css';

const decoder = startDecoder();
void import('./main.ts').then(({ startPage }) => startPage(decoder));
