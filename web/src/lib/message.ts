// A message for people as a catalogue key and its values: what the worker and the shell hand the
// page, which renders it in the reader's language (i18n/render.ts: a Msg is one of these). Here,
// in lib/, so code below the catalogue can name a message without importing it.

export interface Message {
	readonly key: string;
	/** Its values: data, numbers, other messages, lists (i18n/render.ts's Text). */
	readonly params?: Readonly<Record<string, unknown>>;
}
