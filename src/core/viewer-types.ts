// The types the document viewer's parts share (viewer-model.ts composes them): the ports the
// view hands in (ViewerDocument, ViewerSource, ColumnLayout) and the shapes of its state.
import type { KbDocument } from '../contract/knowledge';
import type { Match, PageText } from './viewer-geometry';

/** Page size in PDF points at scale 1 (rotation applied). */
export interface PageSize {
  width: number;
  height: number;
}

/** One entry of a PDF's outline (as pdf.js gives it). */
export interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/** What the viewer asks of an opened PDF. */
export interface ViewerDocument {
  readonly numPages: number;
  /** The text items of page `n` (1-based). */
  pageText(n: number): Promise<PageText>;
  /** The outline, or null when the PDF has none. */
  outline(): Promise<OutlineNode[] | null>;
  /** The page (1-based) an outline destination points at, or null. */
  destinationPage(dest: NonNullable<OutlineNode['dest']>): Promise<number | null>;
  /** Lets the document go (another one is shown, or the element goes). */
  close(): void;
}

/** An opened document: a PDF (with its first page's size), an image, or a file that cannot be previewed. */
export type Opened<D extends ViewerDocument> = { state: 'pdf'; document: D; firstPage: PageSize } | { state: 'image'; src: string } | { state: 'other' };

/** The load of the current document. */
export type ViewerLoad<D extends ViewerDocument> =
  | { state: 'idle' | 'loading' }
  | { state: 'error'; message: string }
  | { state: 'pdf'; document: D }
  | { state: 'image'; src: string }
  | { state: 'other' };

/** Where the view gets one document from (its network calls and pdf.js). */
export interface ViewerSource<D extends ViewerDocument> {
  /** Reads the record (handed to `record` as soon as it is known) and opens the document. */
  open(signal: AbortSignal, record: (r: KbDocument | null) => void): Promise<Opened<D>>;
  /** The parsed markdown of the document; absent without a document id. */
  markdown?: () => Promise<string>;
  /** Saves the file (the record's title as its name when known); absent when there is nothing to download. */
  download?: (record: KbDocument | null) => Promise<void>;
}

/** The column of pages on screen (the view's scrolling box). */
export interface ColumnLayout {
  /** The top of page `n`'s box in the column (px), or null when it is not laid out. */
  pageTop(n: number): number | null;
  scrollTop: number;
  readonly clientHeight: number;
  /** Every page has its box (no spacer stands for pages far from the start page). */
  readonly complete: boolean;
}

/** How failures become messages (the view translates them and tells the page). */
export interface ViewerDeps {
  fail(error: unknown, what: 'load_failed' | 'download_failed' | 'markdown_failed'): string;
}

/** The zoom chosen: fit the width, fit the page, or a scale. */
export type Zoom = 'fit-width' | 'fit-page' | number;
/** The parsed-text panel: not asked for, loading, read, or failed. */
export type MarkdownState = { state: 'loading' } | { state: 'done'; text: string } | { state: 'error'; message: string } | null;
/** The current search: its query, every match, and which one is current. */
export interface SearchState {
  query: string;
  matches: Match[];
  index: number;
}
/** The boxes laid out: pages `first`…`last` between spacers of `before`/`after` pixels. */
export interface Column {
  first: number;
  last: number;
  before: number;
  after: number;
}

/** The distance between two pages: their 12 px margins collapse into one (viewer-css.ts). */
export const PAGE_MARGIN = 12;
/** The placeholder size before the first page is measured (US Letter). */
export const LETTER: PageSize = { width: 612, height: 792 };
