import type { ParseResult, Progress } from '../parsing/protocol';
import { imageStructures, pdfStructures } from './document';

/**
 * The parse stage after the text (issue 28 §1): the structures drawn in a PDF's pages or an
 * image, with their notes added to the document's. A failure here never fails the parse: the
 * document keeps its text and says its drawings were not read.
 */
export async function withStructures(result: ParseResult, kind: 'pdf' | 'image', file: string, progress: Progress): Promise<ParseResult> {
  try {
    const read = kind === 'pdf' ? await pdfStructures(file, progress) : await imageStructures(file, progress);
    return { ...result, structures: read.structures, notes: [...result.notes, ...read.notes] };
  } catch (err) {
    return { ...result, structures: [], notes: [...result.notes, `化学结构识别失败：${err instanceof Error ? err.message : String(err)}`] };
  }
}
