// The decoder worker: owns the WASM instance; the page talks to it only through Comlink.
import { expose } from 'comlink';
import type { DecoderApi } from './api.ts';
import { fail } from '../lib/result.ts';

const api: DecoderApi = {
	async readFacts(file) {
		return fail(`not implemented yet (${file.name})`);
	},
};

expose(api);
