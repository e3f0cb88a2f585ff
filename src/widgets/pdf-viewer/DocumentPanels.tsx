// What sits beside or instead of the pages: the outline, the parsed markdown, an image document.
import { useEffect, useLayoutEffect, useRef, type MouseEvent as ReactMouseEvent } from 'react';
import type { OutlineNode, ViewerModel } from '../../core/viewer-model';
import { useT } from '../shared/host-context';
import type { PdfDocument } from './document-source';
import type { PageLabels } from './PdfPage';
import { useValue } from './use-value';

type Model = ViewerModel<PdfDocument>;

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

/** An image document, fitted to the width or at the zoom chosen (width set through CSSOM: no inline style attribute). */
export function ImageView({ model, src, title }: { model: Model; src: string; title: string }) {
  const t = useT('pdfViewer');
  const scale = useValue(model.$imageScale);
  const img = useRef<HTMLImageElement>(null);
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
  }, [scale]);
  return (
    <div part="image-view" tabIndex={0} className="flex-1 overflow-auto p-4 bg-line">
      <img ref={img} part="image" src={src} alt={t('image_alt', { title })} className="block mx-auto bg-white" />
    </div>
  );
}
