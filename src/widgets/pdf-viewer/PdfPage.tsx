import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { PageSize } from '../../core/viewer-model';
import type { PDFDocumentProxy } from './pdfjs';
import { pdfjs } from './pdfjs';
import type { DocStructure } from '../../core/structures-api';
import { boxToRect, type Match, type PdfBox, type Rect } from '../../core/viewer-geometry';

/** Texts of the pages, made once per language (not one translation per page and render). */
export interface PageLabels {
  page: (n: number) => string;
  loading: (n: number) => string;
  citation: string;
  /** The name of a recognised structure's box (its label, when read). */
  structure: (label: string | null) => string;
}

const NO_STRUCTURES: readonly DocStructure[] = [];

interface PdfPageProps {
  pdf: PDFDocumentProxy;
  /** 1-based. */
  number: number;
  scale: number;
  /** Known size of this page, else the placeholder size (the first page's). */
  size: PageSize;
  /**
   * Whether to render now: the page is near the visible area and either visible itself or no
   * visible page is still waiting (visible pages go first). False releases the canvas.
   */
  near: boolean;
  /** The canvas is drawn (the view keeps the set, told through onRendered). */
  rendered: boolean;
  /** Told when the canvas is drawn (true) or released (false). */
  onRendered: (page: number, rendered: boolean) => void;
  /** The search matches on this page. */
  matches: Match[];
  /** The current match of the search (on any page), or null. */
  currentMatch: Match | null;
  citation: PdfBox | null;
  /** The structures recognised on this page, drawn as boxes (empty when hidden). */
  structures?: readonly DocStructure[];
  /** The structure open in the review panel (its box stands out). */
  selectedStructure?: number | null;
  /** A structure's box was clicked. */
  onStructure?: (id: number) => void;
  labels: PageLabels;
  onSize: (page: number, size: PageSize) => void;
  /** The current match or the citation has its rectangle on this page (page pixels). */
  onFocusRect: (page: number, rect: Rect) => void;
}

/** Settles after the next frame is painted (or 100 ms, when frames do not come: a hidden tab). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}

/** Largest canvas in device pixels (keeps memory bounded on big zooms). */
const MAX_CANVAS_PIXELS = 16 * 1024 * 1024;

/**
 * One page: an empty box of the right size (no hooks, one element: a 500-page document mounts
 * and lays out 500 of them at once) until it comes near the visible area, then the canvas and
 * the selectable text layer inside it; far away again, they are released.
 */
/** A recognised structure's box over its page (a PDF page or an image document): a click opens its review. */
export function StructureBox({ structure: s, rect, selected, labels, onSelect }: { structure: DocStructure; rect: Rect; selected: boolean; labels: Pick<PageLabels, 'structure'>; onSelect: () => void }) {
  return (
    <button
      type="button"
      part={selected ? 'structure-box structure-box-selected' : 'structure-box'}
      data-structure-id={s.id}
      data-corrected={s.corrected_at ? 'true' : 'false'}
      aria-label={labels.structure(s.label)}
      aria-pressed={selected}
      title={labels.structure(s.label)}
      className={`csai-pdf-structure absolute ${selected ? 'is-selected' : ''}`}
      style={{ left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` }}
      onClick={onSelect}
    />
  );
}

export const PdfPage = memo(function PdfPage(props: PdfPageProps) {
  const { number, scale, size, near, rendered, labels } = props;
  return (
    <div
      part="page"
      data-page-number={number}
      data-rendered={rendered ? 'true' : 'false'}
      role="region"
      aria-label={labels.page(number)}
      className="csai-pdf-page"
      style={{ width: `${size.width * scale}px`, height: `${size.height * scale}px` }}
    >
      {near && <PageLayers {...props} />}
    </div>
  );
});

/** The drawn page: canvas, text layer, search marks and the cited box. */
function PageLayers(props: PdfPageProps) {
  const { pdf, number, scale, size, rendered, matches, currentMatch, citation, labels, onSize, onFocusRect, onRendered } = props;
  const { structures = NO_STRUCTURES, selectedStructure = null, onStructure } = props;
  const [structureRects, setStructureRects] = useState<{ s: DocStructure; rect: Rect }[]>([]);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const textDivs = useRef<HTMLElement[]>([]);
  const [textReady, setTextReady] = useState(0);
  const [citationRect, setCitationRect] = useState<Rect | null>(null);
  const [marks, setMarks] = useState<{ rect: Rect; current: boolean }[]>([]);

  // Render on mount; cancel and release the canvas when the page goes far (unmount). A layout
  // effect: the worker is asked for the page in the task that mounts it, not after a paint.
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    const textDiv = textRef.current;
    if (!canvas || !textDiv) return;
    const box = canvas.parentElement;
    let cancelled = false;
    let task: { cancel(): void } | undefined;
    let textLayer: InstanceType<typeof pdfjs.TextLayer> | undefined;
    void (async () => {
      try {
        const page = await pdf.getPage(number);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        if (base.width !== size.width || base.height !== size.height) onSize(number, { width: base.width, height: base.height });
        const viewport = page.getViewport({ scale });
        const ratio = window.devicePixelRatio || 1;
        const outputScale = Math.min(ratio, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
        canvas.width = Math.floor(viewport.width * outputScale);
        canvas.height = Math.floor(viewport.height * outputScale);
        canvas.style.width = `${viewport.width}px`;
        canvas.style.height = `${viewport.height}px`;
        const render = page.render({
          canvas,
          viewport,
          transform: outputScale !== 1 ? [outputScale, 0, 0, outputScale, 0, 0] : undefined,
        });
        task = render;
        await render.promise;
        if (cancelled) return;
        // Marked drawn at once (the loading label hides with it, viewer-css.ts); what follows
        // (the view's update of the page list, which starts the next pages, and the text layer)
        // waits until the drawn page is on screen.
        box?.setAttribute('data-rendered', 'true');
        await afterPaint();
        if (cancelled) return;
        onRendered(number, true);
        // The text layer after the canvas, as pdf.js's own viewer does: the worker's text
        // extraction would otherwise compete with drawing the page.
        textDiv.replaceChildren();
        textLayer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: textDiv, viewport });
        await textLayer.render();
        if (cancelled) return;
        textDivs.current = textLayer.textDivs;
        setTextReady((n) => n + 1);
      } catch (error) {
        if (!cancelled && !(error instanceof Error && error.name === 'RenderingCancelledException')) {
          console.warn('[csai] page render failed', number, error);
        }
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
      textLayer?.cancel();
      // Release the bitmap: a zero-size canvas frees its memory at once.
      canvas.width = 0;
      canvas.height = 0;
      textDiv.replaceChildren();
      textDivs.current = [];
      box?.setAttribute('data-rendered', 'false');
      onRendered(number, false);
      setTextReady(0);
    };
    // `size`, `onSize` and `onRendered` are only compared and reported, not a reason to render again.
  }, [pdf, number, scale]);

  // The cited box: from PDF points to page pixels through the page's viewport transform.
  useEffect(() => {
    if (!citation) {
      setCitationRect(null);
      return;
    }
    let live = true;
    void pdf.getPage(number).then((page) => {
      if (!live) return;
      const viewport = page.getViewport({ scale });
      const rect = boxToRect(citation, (r) => viewport.convertToViewportRectangle(r));
      setCitationRect(rect);
      onFocusRect(number, rect);
    });
    return () => {
      live = false;
    };
  }, [pdf, number, scale, citation, onFocusRect]);

  // The recognised structures' boxes (PDF points, like the cited box) in page pixels.
  useEffect(() => {
    if (structures.length === 0) {
      setStructureRects([]);
      return;
    }
    let live = true;
    void pdf.getPage(number).then((page) => {
      if (!live) return;
      const viewport = page.getViewport({ scale });
      setStructureRects(structures.map((s) => ({ s, rect: boxToRect(s.bbox, (r) => viewport.convertToViewportRectangle(r)) })));
    });
    return () => {
      live = false;
    };
  }, [pdf, number, scale, structures]);

  // Search marks: rectangles of the matched characters inside the text layer's spans.
  useLayoutEffect(() => {
    const textDiv = textRef.current;
    const box = textDiv?.parentElement;
    if (!textDiv || !box || !textReady || matches.length === 0) {
      setMarks([]);
      return;
    }
    const spans = textDivs.current;
    const origin = box.getBoundingClientRect();
    const out: { rect: Rect; current: boolean }[] = [];
    let focus: Rect | null = null;
    for (const m of matches) {
      const isCurrent = m === currentMatch;
      for (const part of m.parts) {
        const node = spans[part.item]?.firstChild;
        if (!node || node.nodeType !== Node.TEXT_NODE) continue;
        const range = document.createRange();
        const len = node.textContent?.length ?? 0;
        range.setStart(node, Math.min(part.start, len));
        range.setEnd(node, Math.min(part.end, len));
        for (const r of range.getClientRects()) {
          const rect = { left: r.left - origin.left, top: r.top - origin.top, width: r.width, height: r.height };
          out.push({ rect, current: isCurrent });
          if (isCurrent && !focus) focus = rect;
        }
      }
    }
    setMarks(out);
    if (focus) onFocusRect(number, focus);
  }, [textReady, matches, currentMatch, number, onFocusRect]);

  return (
    <>
      <canvas ref={canvasRef} width={0} height={0} aria-hidden="true" className="absolute inset-0" />
      <div
        ref={textRef}
        className="textLayer"
        style={{ ['--total-scale-factor' as string]: String(scale), ['--scale-round-x' as string]: '1px', ['--scale-round-y' as string]: '1px' }}
      />
      {!rendered && (
        <div aria-hidden="true" className="csai-pdf-loading absolute inset-0 flex items-center justify-center text-sm text-muted">
          {labels.loading(number)}
        </div>
      )}
      {marks.map((m, i) => (
        <div
          key={i}
          part={m.current ? 'search-match search-match-current' : 'search-match'}
          data-current={m.current ? 'true' : 'false'}
          aria-hidden="true"
          className={`csai-pdf-mark absolute pointer-events-none ${m.current ? 'is-current' : ''}`}
          style={{ left: `${m.rect.left}px`, top: `${m.rect.top}px`, width: `${m.rect.width}px`, height: `${m.rect.height}px` }}
        />
      ))}
      {structureRects.map(({ s, rect }) => (
        <StructureBox key={s.id} structure={s} rect={rect} selected={s.id === selectedStructure} labels={labels} onSelect={() => onStructure?.(s.id)} />
      ))}
      {citationRect && (
        <div
          part="citation"
          role="note"
          aria-label={labels.citation}
          className="csai-pdf-citation absolute pointer-events-none"
          style={{ left: `${citationRect.left}px`, top: `${citationRect.top}px`, width: `${citationRect.width}px`, height: `${citationRect.height}px` }}
        />
      )}
    </>
  );
}
