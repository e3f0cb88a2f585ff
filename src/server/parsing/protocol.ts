import type { PassageKind } from './navigation';
import type { ParsedActivity } from './chemistry/activities';
import type { Block } from './pdf-layout';

/** What the parse worker is asked to do and what it answers (structured-clone messages). */
export type ParseKind = 'pdf' | 'image' | 'sdf' | 'pdb' | 'markdown';

export interface ParseTask {
  type?: 'task';
  taskId: number;
  kind: ParseKind;
  path: string;
  title: string;
  /**
   * Read only the structures drawn on a PDF's pages or in an image, not the text: the
   * structure job after the parse (chemistry/stage.ts). The answer is a ParseResult with
   * `structures` and `notes` and nothing else.
   */
  structures?: StructureInput;
}

/** What the structure reading needs from the text parse: where text is, and the blocks that may be labels. */
export interface StructureInput {
  /**
   * The boxes of the lines OCR read on each page without a text layer (a scan) or in an image (PDF
   * points or the image's pixels, origin bottom-left), as [page, boxes] pairs. A page with a text layer uses its own.
   */
  textBoxes: Array<[number, Array<[number, number, number, number]>]>;
  /** The short text blocks of the pages (chemistry/labels.ts labelCandidates), where labels are read. */
  labelBlocks: Block[];
}

/** A passage of the parsed document, ready for the full-text index. */
export interface ParsedChunk {
  /** Page counted from 1 (pdf.js numbering), or null for files without pages. */
  page: number | null;
  /** [x0, y0, x1, y1] in PDF points on that page (origin bottom-left), or null. */
  bbox: [number, number, number, number] | null;
  text: string;
  /** The text split into index tokens, space-separated (see text/segment.ts). */
  segmented: string;
  /** Content (the default) or navigation (table of contents, index, references; see navigation.ts), which is not indexed. */
  kind?: PassageKind;
}

export interface ParsedMolecule {
  idx: number;
  name: string | null;
  smiles: string | null;
  molfile: string;
  properties: Record<string, string>;
}

export interface ParseResult {
  markdown: string;
  pageCount: number | null;
  chunks: ParsedChunk[];
  molecules: ParsedMolecule[];
  /** Activities read from tables and sentences (parsing/chemistry/activities.ts); absent: none. */
  activities?: ParsedActivity[];
  /** Extra human notes for progress_texts (e.g. OCR not available). */
  notes: string[];
  /** The text blocks of each page that may hold a drawing's label (chemistry/stage.ts keptLabelBlocks), kept for the structure job. */
  labelBlocks?: Block[];
  /** The boxes of the lines OCR read, by page (StructureInput.textBoxes), kept for the structure job. */
  textBoxes?: Array<[number, Array<[number, number, number, number]>]>;
  /** Structures read from the drawings of a PDF or image (parsing/chemistry/document.ts). */
  structures?: ParsedStructure[];
}

/** A structure drawing recognised on a page: box in PDF points (origin bottom-left), RDKit canonical SMILES. */
export interface ParsedStructure {
  page: number;
  bbox: [number, number, number, number];
  smiles: string;
  confidence: number;
  method: string;
  label: string | null;
}

/**
 * Asks the process to stop at its next page boundary (its next progress report) and wait there
 * until the pool writes `serial` (UInt32LE) to the turn pipe, fd TURN_FD (fair sharing).
 */
export interface PauseMessage {
  type: 'pause';
  taskId: number;
  serial: number;
}
export type PoolMessage = ParseTask | PauseMessage;
/** The parse process's file descriptor the pool writes resume tokens to. */
export const TURN_FD = 4;

export type WorkerMessage =
  | { type: 'progress'; taskId: number; percent: number; text?: string }
  | { type: 'done'; taskId: number; result: ParseResult; memoryMb: number }
  | { type: 'error'; taskId: number; message: string; memoryMb: number };

/** Reports progress from inside a parser: percent 0–100 and an optional human step. */
export type Progress = (percent: number, text?: string) => void;
