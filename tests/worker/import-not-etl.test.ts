// The page is told which of the two a refused file is: no ETL trace at all (`format`, whose hint
// says what Sockscope reads) or a trace whose header is damaged (`damaged`, whose hint says so).
import { describe, expect, it } from 'vitest';
import { english, failureText } from '../../web/src/i18n/render.ts';
import { WMI_BUFFER_HEADER } from '../../web/src/generated/layouts.ts';
import { library, sampleBytes, storedCounts } from './library-harness.ts';

const BUFFER_TYPE = WMI_BUFFER_HEADER.fields.find((f) => f.name === 'BufferType')!.offset;
const nothing = { traces: 0, chunks: 0, columns: 0, buffers: 0, sockets: 0 };

describe('importing a file that is refused', () => {
	it('a text file is no trace; the sample with its header buffer overwritten is a damaged one', async () => {
		const lib = library();
		const text = await lib.api.importFile(new File(['hello, world'], 'notes.etl'), () => {});
		expect(text).toMatchObject({ ok: false, code: 'format' });
		expect(!text.ok && text.error).toMatch(/^not an ETL file: .*; the file starts with text/);
		const bytes = new Uint8Array(sampleBytes);
		new DataView(bytes.buffer).setUint16(BUFFER_TYPE, 1, true);
		const damaged = await lib.api.importFile(new File([bytes], 'damaged.etl'), () => {});
		expect(damaged).toEqual({
			ok: false,
			code: 'damaged',
			error:
				'the trace header cannot be read: buffer 0 at offset 0x0 has BufferType 1, not 4 (the trace header buffer)',
			// The same words as a message, which the page says in the reader's language.
			message: expect.objectContaining({ key: 'not-etl.header-unreadable' }),
		});
		// failureText: what the page renders, here in English, is the same words.
		if (!damaged.ok) expect(english(failureText(damaged))).toBe(damaged.error);
		expect(await storedCounts(lib)).toEqual(nothing);
	});
});
