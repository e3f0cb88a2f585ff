// What sits beside or instead of the pages: the outline, the parsed markdown, an image document.
import { signal } from '@preact/signals-core';
import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { StructureReview } from '../../core/structure-review';
import type { DocStructure } from '../../core/structures-api';
import type { OutlineNode, ViewerModel } from '../../core/viewer-model';
import { useT } from '../shared/host-context';
import type { PdfDocument } from './document-source';
import { StructureBox, type PageLabels } from './PdfPage';
import { useValue } from './use-value';

type Model = ViewerModel<PdfDocument>;

// What an image without a review shows: no structures.
const NO_STRUCTURES = signal<readonly DocStructure[]>([]);
const SHOWN = signal(false);
const NONE = signal<DocStructure | null>(null);

function OutlineList({ nodes, onGo }: { nodes: OutlineNode[]; onGo: (dest: OutlineNode['dest']) => void }) {
  return (
    <ul className="pl-3">
      {nodes.map((node, i) => (
        <li key={i}>
          <button type="button" className="text-left py-0.5 hover:text-accent hover:underline" onClick={() => onGo(node.dest)}>
            {node.title}
          </button>
          {node.items.length > 0 && <OutlineList nodes={node.items} onGo={onGo} />}
        </li>
      ))}
    </ul>
  );
}

/** The PDF's outline, when it has one and it is shown. */
export function OutlinePanel({ model }: { model: Model }) {
  const t = useT('pdfViewer');
  const outline = useValue(model.$outline);
  const open = useValue(model.$outlineOpen);
  if (!open || outline.length === 0) return null;
  return (
    <nav part="outline" aria-label={t('outline')} className="w-64 shrink-0 overflow-auto border-r border-line p-2 text-sm">
      <OutlineList nodes={outline} onGo={(d) => void model.goOutline(d)} />
    </nav>
  );
}

/** The parsed markdown beside the pages (read when first shown); a page label in it scrolls the pages there. */
export function MarkdownPanel({ model, labels }: { model: Model; labels: PageLabels }) {
  const t = useT('pdfViewer');
  const open = useValue(model.$markdownOpen);
  const markdown = useValue(model.$markdown);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || markdown?.state !== 'done') return;
    let live = true;
    // markdown-it and DOMPurify load with the panel, not with the viewer.
    void import('./markdown').then(({ markdownFragment }) => {
      if (live) el.replaceChildren(markdownFragment(markdown.text, labels.page));
    });
    return () => {
      live = false;
    };
  }, [markdown, open, labels]);
  const onClick = (e: ReactMouseEvent<HTMLDivElement>) => {
    const label = (e.target as Element).closest<HTMLElement>('[data-page]');
    const n = Number(label?.dataset['page']);
    if (label && Number.isInteger(n)) model.goToPage(n);
  };
  if (!open) return null;
  return (
    <aside part="markdown" aria-label={t('markdown')} className="w-[40%] max-w-xl shrink-0 overflow-auto border-l border-line p-4">
      {markdown?.state === 'loading' && <p role="status" className="text-muted">{t('markdown_loading')}</p>}
      {markdown?.state === 'error' && <p role="alert" className="text-danger">{markdown.message}</p>}
      {markdown?.state === 'done' && !markdown.text.trim() && <p className="text-muted">{t('markdown_empty')}</p>}
      <div ref={box} className="csai-md" onClick={onClick} />
    </aside>
  );
}

/** A structure's box in the image's pixels (origin bottom-left) as a rectangle over the shown image, in CSS pixels. */
function imageRect(img: HTMLImageElement, bbox: readonly [number, number, number, number]) {
  const k = img.clientWidth / Math.max(1, img.naturalWidth);
  const [x0, y0, x1, y1] = bbox;
  return { left: img.offsetLeft + x0 * k, top: img.offsetTop + (img.naturalHeight - y1) * k, width: (x1 - x0) * k, height: (y1 - y0) * k };
}

/**
 * An image document, fitted to the width or at the zoom chosen (width set through CSSOM: no inline
 * style attribute), with the boxes of the structures recognised in it (their review opens beside).
 */
export function ImageView({ model, src, title, review, labels }: { model: Model; src: string; title: string; review?: StructureReview | null; labels: PageLabels }) {
  const t = useT('pdfViewer');
  const scale = useValue(model.$imageScale);
  const structures = useValue(review?.$structures ?? NO_STRUCTURES);
  const shown = useValue(review?.$shown ?? SHOWN);
  const selected = useValue(review?.$selected ?? NONE);
  const img = useRef<HTMLImageElement>(null);
  const [layout, setLayout] = useState(0);
  useLayoutEffect(() => {
    const el = img.current;
    if (!el) return;
    if (scale === 'fit') {
      el.style.removeProperty('width');
      el.style.setProperty('max-width', '100%');
    } else {
      el.style.setProperty('width', `${scale * 100}%`);
      el.style.setProperty('max-width', 'none');
    }
    setLayout((n) => n + 1);
  }, [scale]);
  // The boxes follow the image's size: on load, on zoom and when the viewer is resized.
  useEffect(() => {
    const el = img.current;
    if (!el) return;
    const again = () => setLayout((n) => n + 1);
    el.addEventListener('load', again);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(again) : null;
    observer?.observe(el);
    return () => {
      el.removeEventListener('load', again);
      observer?.disconnect();
    };
  }, []);
  const [boxes, setBoxes] = useState<{ s: DocStructure; rect: ReturnType<typeof imageRect> }[]>([]);
  useLayoutEffect(() => {
    const el = img.current;
    setBoxes(shown && el?.complete && el.naturalWidth ? structures.map((s) => ({ s, rect: imageRect(el, s.bbox) })) : []);
  }, [structures, shown, layout]);
  return (
    <div part="image-view" tabIndex={0} className="relative flex-1 overflow-auto p-4 bg-line">
      <img ref={img} part="image" src={src} alt={t('image_alt', { title })} className="block mx-auto bg-white" />
      {boxes.map(({ s, rect }) => (
        <StructureBox key={s.id} structure={s} rect={rect} selected={s.id === selected?.id} labels={labels} onSelect={() => review?.select(s.id)} />
      ))}
    </div>
  );
}
