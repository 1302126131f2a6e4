import type { TraceFacts } from '../decoder/types.ts';
import type { Result } from '../lib/result.ts';

/** What the decoder worker offers the page, through Comlink. */
export interface DecoderApi {
	/** Reads the trace header of a dropped or picked file; the File is passed, never its bytes. */
	readFacts(file: File): Promise<Result<TraceFacts>>;
}
