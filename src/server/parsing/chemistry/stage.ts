import type { ParseResult, Progress, StructureInput } from '../protocol';
import { imageStructures, pdfStructures } from './document';
import { imageUnit, labelCounts, labelsNear, primedLabel } from './labels';
import type { Block, Box } from '../pdf-layout';

/** Label blocks kept for one document at most (the structure job's payload stays small). */
const MAX_LABEL_BLOCKS = 20_000;

/** The label blocks worth keeping for the structure step: a label has digits (labels.ts IDENT); a table only as one row of labels. */
export const keptLabelBlocks = (blocks: readonly Block[] | undefined): Block[] =>
  (blocks ?? [])
    .filter((b) => /\d/.test(b.text))
    .slice(0, MAX_LABEL_BLOCKS)
    .map((b) => ({ kind: b.kind, page: b.page, bbox: b.bbox, text: b.text, size: b.size, ...(b.rows?.length === 1 ? { rows: b.rows } : {}) }));

/**
 * The labels of a document's drawings from its label blocks (labels.ts): per page, each drawing
 * its nearest label (labelsNear), then a prime OCR dropped from a drawing's label put back where
 * the rest of the document names the compound with it (primedLabel). A label a drawing has is kept.
 */
export function labelStructures<T extends { page: number; bbox: Box; label: string | null }>(read: readonly T[], labelBlocks: readonly Block[], unit: number): T[] {
  const labels: (string | null)[] = read.map((s) => s.label ?? null);
  for (const page of new Set(read.map((s) => s.page))) {
    const on = read.flatMap((s, i) => (s.page === page ? [i] : []));
    const found = labelsNear(labelBlocks.filter((b) => b.page === page), on.map((i) => read[i]!.bbox), unit, on.map((i) => labels[i]!));
    on.forEach((i, k) => (labels[i] = found[k]!));
  }
  const known = labelCounts(labelBlocks);
  for (const key of labels) if (key !== null) known.set(key, (known.get(key) ?? 1) - 1);
  const claimed = new Set(labels.filter((k): k is string => k !== null));
  return read.map((s, i) => ({ ...s, label: labels[i] === null ? null : primedLabel(labels[i]!, known, claimed) }));
}

/**
 * The structure step, in a parse process: the structures drawn in a PDF's pages or an
 * image, read after the document's text was stored (parsing/structure-job.ts queues it), with their
 * labels from the text blocks the parse kept. Answers a result with only `structures` and `notes`.
 * A failure of the reading is a note, not an error: the document keeps its text.
 */
export async function readStructures(kind: 'pdf' | 'image', file: string, input: StructureInput, progress: Progress): Promise<ParseResult> {
  const empty = { markdown: '', pageCount: null, chunks: [], molecules: [] };
  try {
    const textBoxes = new Map<number, Box[]>(input.textBoxes);
    const read = kind === 'pdf' ? await pdfStructures(file, progress, { textBoxes }) : await imageStructures(file, progress, { textBoxes });
    // Each drawing's label from the short text blocks of its page (化合物 12a under it),
    // by the same rules on an image as on a PDF page, its pixels measured in points.
    const unit = kind === 'image' ? imageUnit(input.labelBlocks) : 1;
    const structures = labelStructures(read.structures, input.labelBlocks, unit);
    return { ...empty, structures, notes: read.notes };
  } catch (err) {
    return { ...empty, structures: [], notes: [`化学结构识别失败：${err instanceof Error ? err.message : String(err)}`] };
  }
}
