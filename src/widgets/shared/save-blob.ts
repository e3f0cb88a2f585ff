/**
 * Saves a file the element fetched (through its API client) via a hidden link put in `container`
 * (the element's shadow root), so the browser's download starts with the given name.
 */
export function saveBlob(container: ParentNode, blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.hidden = true;
  container.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
