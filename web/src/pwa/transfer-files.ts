// The files carried by a drop or a paste. Chromium lists pasted files in `files`; some browsers
// only expose them as items, so both are read.
export function filesIn(transfer: DataTransfer | null | undefined): File[] {
	if (!transfer) return [];
	if (transfer.files.length > 0) return Array.from(transfer.files);
	const files: File[] = [];
	for (const item of Array.from(transfer.items)) {
		const file = item.kind === 'file' ? item.getAsFile() : null;
		if (file) files.push(file);
	}
	return files;
}
