// A short message at the foot of the screen ("Copied 3 rows as TSV"), gone after a few seconds
// unless another replaced it first.
const SHOWN_MS = 3500;

export class Toast {
	message = $state<string | null>(null);

	say(message: string): void {
		this.message = message;
		setTimeout(() => {
			if (this.message === message) this.message = null;
		}, SHOWN_MS);
	}
}
