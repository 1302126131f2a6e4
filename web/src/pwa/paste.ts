// Ctrl+V of trace files copied in Explorer opens them, like a drop.
import { filesIn } from './transfer-files.ts';

/** Listens on `target` until the returned function is called. */
export function listenForPastedFiles(target: Window, onfiles: (files: File[]) => void): () => void {
	const onpaste = (event: ClipboardEvent) => {
		const files = filesIn(event.clipboardData);
		// Text pastes (into a future filter box, say) are left alone.
		if (files.length === 0) return;
		event.preventDefault();
		onfiles(files);
	};
	target.addEventListener('paste', onpaste);
	return () => target.removeEventListener('paste', onpaste);
}
