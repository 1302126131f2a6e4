// Queries superseded by newer ones: each query takes a generation, and a loop over chunks stops at
// the next chunk once a newer query has begun.

export class Superseded extends Error {
	constructor() {
		// i18n: data (never shown: the page drops a superseded answer)
		super('superseded by a newer query');
	}
}

export class Generations {
	#current = 0;

	/** Marks every query before this one as superseded. */
	begin(): number {
		return ++this.#current;
	}

	/** Throws Superseded when `generation` is given and a newer one has begun. */
	check(generation: number | undefined): void {
		if (generation !== undefined && generation !== this.#current) throw new Superseded();
	}
}
