// Names written beside values, each worked out once per writer: a status's NTSTATUS name, a
// value map's meaning. Lines repeat the same few values millions of times.
import { mapValue } from '../decoder/event-fields.ts';
import { explainStatus } from '../decoder/status.ts';

export class ValueNames {
	readonly #statusNames = new Map<number, string>();
	readonly #meanings = new Map<string, Map<number, string | null>>();

	status(value: number): string {
		let name = this.#statusNames.get(value);
		if (name === undefined) this.#statusNames.set(value, (name = explainStatus(value).name));
		return name;
	}

	meaning(map: string, value: number): string | null {
		let byValue = this.#meanings.get(map);
		if (!byValue) this.#meanings.set(map, (byValue = new Map()));
		let m = byValue.get(value);
		if (m === undefined) byValue.set(value, (m = mapValue(map, value)));
		return m;
	}
}
