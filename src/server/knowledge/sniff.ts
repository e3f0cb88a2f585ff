import type { DocumentType } from '../db/schema';

/** File kinds the product accepts (SPEC §9: pdf, jpg, jpeg, png, pdb, sdf). */
export type FileKind = 'pdf' | 'jpeg' | 'png' | 'sdf' | 'pdb' | 'web';

const byExtension: Record<string, FileKind> = { pdf: 'pdf', jpg: 'jpeg', jpeg: 'jpeg', png: 'png', sdf: 'sdf', pdb: 'pdb' };

/** The lower-case extension of a file name, without the dot ('' if none). */
export const extensionOf = (name: string) => /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** The kind a file name claims by its extension, or null when the extension is not allowed. */
export const kindFromName = (name: string): FileKind | null => byExtension[extensionOf(name)] ?? null;

export const isImage = (kind: FileKind) => kind === 'jpeg' || kind === 'png';

/** `web`: a page saved by page crawl as markdown (never uploaded: no extension maps to it). */
export const documentTypeOf = (kind: FileKind): DocumentType =>
  kind === 'pdf' ? 1 : isImage(kind) ? 3 : kind === 'sdf' ? 5 : kind === 'web' ? 7 : 6;

export const mimeOf = (kind: FileKind) =>
  ({ pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png', sdf: 'chemical/x-mdl-sdfile', pdb: 'chemical/x-pdb', web: 'text/markdown; charset=utf-8' })[kind];

const PDB_RECORDS = new Set([
  'HEADER', 'OBSLTE', 'TITLE', 'SPLIT', 'CAVEAT', 'COMPND', 'SOURCE', 'KEYWDS', 'EXPDTA', 'NUMMDL', 'MDLTYP', 'AUTHOR',
  'REVDAT', 'SPRSDE', 'JRNL', 'REMARK', 'DBREF', 'DBREF1', 'DBREF2', 'SEQADV', 'SEQRES', 'MODRES', 'HET', 'HETNAM',
  'HETSYN', 'FORMUL', 'HELIX', 'SHEET', 'SSBOND', 'LINK', 'CISPEP', 'SITE', 'CRYST1', 'ORIGX1', 'ORIGX2', 'ORIGX3',
  'SCALE1', 'SCALE2', 'SCALE3', 'MTRIX1', 'MTRIX2', 'MTRIX3', 'MODEL', 'ATOM', 'ANISOU', 'TER', 'HETATM', 'ENDMDL',
  'CONECT', 'MASTER', 'END',
]);

/** Text files must not hold NUL bytes and must decode as UTF-8 or Latin-1 text lines. */
function textLines(head: Buffer): string[] | null {
  if (head.includes(0)) return null;
  return head.toString('latin1').split(/\r?\n/);
}

/** An MDL molfile/SDF record: the counts line (line 4) ends in V2000/V3000, or the text has "M  END". */
function looksLikeSdf(head: Buffer): boolean {
  const lines = textLines(head);
  if (!lines || lines.length < 4) return false;
  const counts = lines[3] ?? '';
  if (/^[\s\d]{6}.*V[23]000\s*$/.test(counts)) return true;
  return /^M {2}END\s*$/m.test(lines.join('\n')) && /^[\s\d]{6}/.test(counts);
}

/** A PDB file: its lines start with PDB record names, with ATOM/HETATM/HEADER among them. */
function looksLikePdb(head: Buffer): boolean {
  const lines = textLines(head);
  if (!lines) return false;
  const full = head.length < 64 * 1024 ? lines : lines.slice(0, -1); // the last line may be cut
  let known = 0;
  let checked = 0;
  let anchor = false;
  for (const line of full) {
    if (!line.trim()) continue;
    checked++;
    const record = line.slice(0, 6).trim();
    if (PDB_RECORDS.has(record)) known++;
    if (record === 'ATOM' || record === 'HETATM' || record === 'HEADER' || record === 'CRYST1') anchor = true;
  }
  return checked > 0 && anchor && known / checked >= 0.9;
}

/**
 * Whether the first bytes of a file match the kind its name claims (DESIGN §5: type from
 * content, not only the extension). Binary formats by magic bytes, text formats by structure.
 */
export function contentMatches(kind: FileKind, head: Buffer): boolean {
  switch (kind) {
    case 'pdf':
      // pdf.js accepts a header within the first 1024 bytes; so do we.
      return head.subarray(0, 1024).includes('%PDF-');
    case 'jpeg':
      return head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'png':
      return head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'sdf':
      return looksLikeSdf(head);
    case 'pdb':
      return looksLikePdb(head);
    case 'web':
      return !head.includes(0);
  }
}

/** For images: the kind the bytes actually are (a PNG named .jpg is still an image). */
export function imageKindOf(head: Buffer): FileKind | null {
  if (contentMatches('png', head)) return 'png';
  if (contentMatches('jpeg', head)) return 'jpeg';
  return null;
}
