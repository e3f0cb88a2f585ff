import type { ParseResult, Progress } from '../protocol';
import { imageStructures, pdfStructures } from './document';
import { labelNear } from './labels';
import type { Box } from '../pdf-layout';

/**
 * The parse stage after the text (issue 28 §1): the structures drawn in a PDF's pages or an
 * image, with their notes added to the document's. A failure here never fails the parse: the
 * document keeps its text and says its drawings were not read.
 */
export async function withStructures(result: ParseResult, kind: 'pdf' | 'image', file: string, progress: Progress): Promise<ParseResult> {
  // The label blocks stay in this process: the result sent to the pool does not carry them.
  const { labelBlocks, ...rest } = result;
  try {
    // The text the parse read (text layer or OCR), by page: where no drawing is.
    const textBoxes = new Map<number, Box[]>();
    for (const c of result.chunks) if (c.page !== null && c.bbox) textBoxes.set(c.page, [...(textBoxes.get(c.page) ?? []), c.bbox]);
    const read = kind === 'pdf' ? await pdfStructures(file, progress, { textBoxes }) : await imageStructures(file, progress);
    // Each drawing's label from the short text blocks of its page (issue 28 §2: 化合物 12a under it).
    const structures = read.structures.map((s) => ({ ...s, label: s.label ?? labelNear((labelBlocks ?? []).filter((b) => b.page === s.page), s.bbox) }));
    return { ...rest, structures, notes: [...result.notes, ...read.notes] };
  } catch (err) {
    return { ...rest, structures: [], notes: [...result.notes, `化学结构识别失败：${err instanceof Error ? err.message : String(err)}`] };
  }
}
