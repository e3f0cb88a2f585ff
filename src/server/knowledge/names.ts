import { plainName } from '../../contract/text';

/** Longest original file name kept (characters); longer names are refused. */
export const MAX_TITLE_LENGTH = 1000;

/**
 * The title stored for an uploaded file: the client's name as given, minus control characters
 * (NUL and other C0/C1 codes cannot travel in a header and mean nothing in a name) and invisible
 * formatting (bidi overrides, zero-width characters: a name must show what it is).
 * Path separators stay: the title is only ever data, never a path.
 */
export const cleanTitle = (raw: string): string => plainName(raw);

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

/**
 * An RFC 6266 Content-Disposition: attachment with an ASCII fallback `filename` and the exact
 * UTF-8 name in `filename*` (RFC 8187). Browsers use the latter and sanitise path parts.
 */
export function contentDisposition(title: string): string {
  // Titles stored before invisible formatting was stripped at upload lose it here too.
  const name = plainName(title) || 'download';
  const fallback =
    name
      .replace(/[/\\]/g, '_')
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["%;]/g, '_')
      .slice(0, 200) || 'download';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
