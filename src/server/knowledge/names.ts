/** Longest original file name kept (characters); longer names are refused. */
export const MAX_TITLE_LENGTH = 1000;

/**
 * The title stored for an uploaded file: the client's name as given, minus control characters
 * (NUL and other C0/C1 codes cannot travel in a header and mean nothing in a name). Path
 * separators stay: the title is only ever data, never a path.
 */
export function cleanTitle(raw: string): string {
  return raw.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
}

/** SPEC §5: images with a taken name become name_1.ext, name_2.ext, … */
export function nextFreeName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 1; ; i++) {
    const candidate = `${stem}_${i}${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

// Characters that may not appear raw in the quoted ASCII fallback, plus bidi controls that
// could make a name display differently from what it is.
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * An RFC 6266 Content-Disposition: attachment with an ASCII fallback `filename` and the exact
 * UTF-8 name in `filename*` (RFC 8187). Browsers use the latter and sanitise path parts.
 */
export function contentDisposition(name: string): string {
  const fallback =
    name
      .replace(BIDI, '')
      .replace(/[/\\]/g, '_')
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["%;]/g, '_')
      .slice(0, 200) || 'download';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
