// Messages between the decoder worker and the worker that copies a trace file into the library.

export interface CopyRequest {
	readonly file: File;
	/** The copy's name in `directory` of the origin private file system. */
	readonly name: string;
	readonly directory: string;
}

export type CopyMessage =
	| { readonly kind: 'progress'; readonly written: number }
	| { readonly kind: 'done' }
	| { readonly kind: 'error'; readonly message: string; readonly quota: boolean };
