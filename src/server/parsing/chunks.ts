import { segmentForIndex } from '../retrieval/segment';
import type { Block, Box } from './pdf-layout';
import type { ParsedChunk } from './protocol';

/** Target passage length in characters: long enough for context, short enough to cite. */
const TARGET = 700;

/** Whether two boxes share most of their width: a passage's box must not span two columns. */
const sameColumn = (a: Box, b: Box) => {
  const overlap = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  return overlap >= 0.5 * Math.min(a[2] - a[0], b[2] - b[0]);
};

const union = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/**
 * Passages for the index: consecutive blocks of one page up to about TARGET characters, each
 * with the union of their boxes. A heading starts a passage and is kept in front of its text.
 */
export function chunkBlocks(blocks: Block[]): ParsedChunk[] {
  const out: ParsedChunk[] = [];
  type Passage = { page: number; bbox: Box; parts: string[]; len: number; heading: boolean };
  let cur: Passage | null = null;
  const flush = () => {
    if (cur && cur.parts.join('').trim()) {
      const text = cur.parts.join('\n');
      out.push({ page: cur.page, bbox: cur.bbox, text, segmented: segmentForIndex(text) });
    }
    cur = null;
  };
  for (const b of blocks) {
    const text = b.text;
    if (!cur || cur.page !== b.page || b.kind === 'heading' || cur.len + text.length > TARGET || !sameColumn(cur.bbox, b.bbox)) {
      // A heading followed by nothing yet stays with what comes next.
      const carry: Passage | null = cur;
      if (carry && carry.heading && carry.parts.length === 1 && carry.page === b.page && carry.len < 120 && b.kind !== 'heading') {
        carry.parts.push(text);
        carry.len += text.length;
        carry.bbox = union(carry.bbox, b.bbox);
        continue;
      }
      flush();
      cur = { page: b.page, bbox: b.bbox, parts: [text], len: text.length, heading: b.kind === 'heading' };
      continue;
    }
    cur.parts.push(text);
    cur.len += text.length;
    cur.bbox = union(cur.bbox, b.bbox);
  }
  flush();
  // Very long single blocks (a huge table) are split so no passage gets unwieldy.
  return out.flatMap((c) => (c.text.length <= TARGET * 3 ? [c] : splitLong(c)));
}

function splitLong(c: ParsedChunk): ParsedChunk[] {
  const pieces: ParsedChunk[] = [];
  const lines = c.text.split('\n');
  let buf = '';
  for (const line of lines) {
    if (buf && buf.length + line.length > TARGET * 2) {
      pieces.push({ ...c, text: buf, segmented: segmentForIndex(buf) });
      buf = '';
    }
    buf = buf ? `${buf}\n${line}` : line;
  }
  if (buf) pieces.push({ ...c, text: buf, segmented: segmentForIndex(buf) });
  return pieces;
}

/** Passages of plain text without pages (OCR, molecules, structures): split at blank lines. */
export function chunkText(text: string, page: number | null = null): ParsedChunk[] {
  const out: ParsedChunk[] = [];
  let buf = '';
  for (const para of text.split(/\n\s*\n/)) {
    const p = para.trim();
    if (!p) continue;
    if (buf && buf.length + p.length > TARGET) {
      out.push({ page, bbox: null, text: buf, segmented: segmentForIndex(buf) });
      buf = '';
    }
    buf = buf ? `${buf}\n${p}` : p;
  }
  if (buf) out.push({ page, bbox: null, text: buf, segmented: segmentForIndex(buf) });
  return out;
}
