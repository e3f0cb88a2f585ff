// The viewer's toolbar: page navigation, zoom and fit, search, and the secondary controls
// (outline, parsed text, download). Each control renders the viewer model and calls its verbs.
import { useEffect, type RefObject } from 'react';
import type { StructureReview } from '../../core/structure-review';
import type { ViewerModel } from '../../core/viewer-model';
import { useT } from '../shared/host-context';
import type { PdfDocument } from './document-source';
import { useValue } from './use-value';

type Model = ViewerModel<PdfDocument>;

const btn = 'inline-flex items-center justify-center min-w-[2rem] h-8 px-2 rounded-csai border border-line bg-surface text-ink text-sm hover:border-accent focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50';
const pressed = (on: boolean) => (on ? 'border-accent text-accent' : '');

const ICONS = {
  'fit-width': 'M3 12h18M7 8l-4 4 4 4M17 8l4 4-4 4',
  'fit-page': 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  search: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM16 16l5 5',
  outline: 'M4 6h16M8 12h12M8 18h12M4 12h.01M4 18h.01',
  markdown: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h7',
  download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  structures: 'M12 3l7.8 4.5v9L12 21l-7.8-4.5v-9zM12 8l3.5 2v4L12 16l-3.5-2v-4z',
} as const;

/** A toolbar icon (decorative: the button carries the name). */
function ToolIcon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={ICONS[name]} />
    </svg>
  );
}

/** Previous/next page and the page field. */
function PageNav({ model }: { model: Model }) {
  const t = useT('pdfViewer');
  const page = useValue(model.$page);
  const pageInput = useValue(model.$pageInput);
  const numPages = useValue(model.$numPages);
  return (
    <>
      <button type="button" part="prev" className={btn} onClick={model.previousPage} disabled={page <= 1} aria-label={t('prev_page')} title={t('prev_page')}>
        ‹
      </button>
      <form
        className="inline-flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          // The field's own value: an input event earlier in the same task may not have re-rendered yet.
          model.submitPage(String(new FormData(e.currentTarget).get('page') ?? pageInput));
        }}
      >
        <input
          part="page-input"
          name="page"
          aria-label={t('page_input')}
          inputMode="numeric"
          value={pageInput}
          onChange={(e) => model.typePage(e.target.value)}
          onBlur={model.leavePageInput}
          className="w-14 h-8 px-2 text-center rounded-csai border border-line bg-surface text-ink text-sm"
        />
        <span part="page-count" className="text-sm text-muted">{t('page_of', { total: numPages })}</span>
      </form>
      <button type="button" part="next" className={btn} onClick={model.nextPage} disabled={page >= numPages} aria-label={t('next_page')} title={t('next_page')}>
        ›
      </button>
    </>
  );
}

/** Zoom out/in with the percentage, then the fit buttons (apart: on a phone they may go to the second row). */
function ZoomControls({ model, pdf }: { model: Model; pdf: boolean }) {
  const t = useT('pdfViewer');
  const percent = useValue(model.$zoomPercent);
  const fit = useValue(model.$fit);
  return (
    <>
      <span className="inline-flex items-center gap-1">
        <button type="button" part="zoom-out" className={btn} aria-label={t('zoom_out')} title={t('zoom_out')} onClick={model.zoomOut}>
          −
        </button>
        <span part="zoom-level" role="status" className="w-14 text-center text-sm" aria-label={t('zoom_level', { percent })}>
          {percent}%
        </span>
        <button type="button" part="zoom-in" className={btn} aria-label={t('zoom_in')} title={t('zoom_in')} onClick={model.zoomIn}>
          +
        </button>
      </span>
      <span className="inline-flex items-center gap-1">
        <button type="button" part="fit-width" className={`${btn} gap-1 ${pressed(fit === 'fit-width')}`} aria-pressed={fit === 'fit-width'} aria-label={t('fit_width')} title={t('fit_width')} onClick={model.fitWidth}>
          <ToolIcon name="fit-width" />
          <span className="csai-tb-label">{t('fit_width')}</span>
        </button>
        {pdf && (
          <button type="button" part="fit-page" className={`${btn} gap-1 ${pressed(fit === 'fit-page')}`} aria-pressed={fit === 'fit-page'} aria-label={t('fit_page')} title={t('fit_page')} onClick={model.fitPage}>
            <ToolIcon name="fit-page" />
            <span className="csai-tb-label">{t('fit_page')}</span>
          </button>
        )}
      </span>
    </>
  );
}

/** The search toggle (narrow viewers), the field, previous/next match and the count. */
function SearchBox({ model, input }: { model: Model; input: RefObject<HTMLInputElement | null> }) {
  const t = useT('pdfViewer');
  const open = useValue(model.$searchOpen);
  const query = useValue(model.$query);
  const search = useValue(model.$search);
  const searching = useValue(model.$searching);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open, input]);
  return (
    <>
      <button type="button" part="search-toggle" className={`csai-tb-search-toggle ${btn} ${pressed(open)}`} aria-pressed={open} aria-label={t('search')} title={t('search')} onClick={model.toggleSearch}>
        <ToolIcon name="search" />
      </button>
      <form
        role="search"
        className={`csai-tb-search inline-flex items-center gap-1 ${open ? 'is-open' : ''}`}
        onSubmit={(e) => {
          e.preventDefault();
          void model.search(1, String(new FormData(e.currentTarget).get('q') ?? query));
        }}
      >
        <input
          ref={input}
          part="search-input"
          name="q"
          type="search"
          aria-label={t('search')}
          placeholder={t('search_placeholder')}
          value={query}
          onChange={(e) => model.typeQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') model.closeSearch();
            if (e.key === 'Enter' && e.shiftKey) {
              e.preventDefault();
              void model.search(-1);
            }
          }}
          className="w-40 h-8 px-2 rounded-csai border border-line bg-surface text-ink text-sm"
        />
        <button type="button" part="search-prev" className={btn} aria-label={t('search_prev')} title={t('search_prev')} onClick={() => void model.search(-1)} disabled={!query.trim()}>
          ↑
        </button>
        <button type="button" part="search-next" className={btn} aria-label={t('search_next')} title={t('search_next')} onClick={() => void model.search(1)} disabled={!query.trim()}>
          ↓
        </button>
        <span part="search-status" role="status" aria-live="polite" className="text-sm text-muted min-w-[5rem]">
          {searching ? t('searching') : search ? (search.matches.length ? t('search_count', { current: search.index + 1, total: search.matches.length }) : t('search_none')) : ''}
        </span>
      </form>
    </>
  );
}

/** Icons with tooltips; their words show when the viewer is wide. */
function SecondaryControls({ model, hasMarkdown, canDownload }: { model: Model; hasMarkdown: boolean; canDownload: boolean }) {
  const t = useT('pdfViewer');
  const outline = useValue(model.$outline);
  const outlineOpen = useValue(model.$outlineOpen);
  const markdownOpen = useValue(model.$markdownOpen);
  const downloading = useValue(model.$downloading);
  const load = useValue(model.$load);
  const pdf = load.state === 'pdf';
  return (
    <>
      {pdf && outline.length > 0 && (
        <button type="button" part="outline-toggle" className={`${btn} gap-1 ${pressed(outlineOpen)}`} aria-pressed={outlineOpen} aria-label={t('outline')} title={outlineOpen ? t('outline_hide') : t('outline_show')} onClick={model.toggleOutline}>
          <ToolIcon name="outline" />
          <span className="csai-tb-label">{t('outline')}</span>
        </button>
      )}
      {hasMarkdown && pdf && (
        <button type="button" part="markdown-toggle" className={`${btn} gap-1 ${pressed(markdownOpen)}`} aria-pressed={markdownOpen} aria-label={t('markdown')} title={markdownOpen ? t('markdown_hide') : t('markdown_show')} onClick={model.toggleMarkdown}>
          <ToolIcon name="markdown" />
          <span className="csai-tb-label">{t('markdown')}</span>
        </button>
      )}
      {canDownload && load.state !== 'loading' && (
        <button type="button" part="download" className={`${btn} gap-1`} aria-label={downloading ? t('downloading') : t('download')} title={downloading ? t('downloading') : t('download')} onClick={() => void model.download()} disabled={downloading}>
          <ToolIcon name="download" />
          <span className="csai-tb-label">{downloading ? t('downloading') : t('download')}</span>
        </button>
      )}
    </>
  );
}

/** Shows or hides the boxes of the structures recognised in the document's drawings (only when there are some). */
function StructuresToggle({ model, review }: { model: Model; review: StructureReview }) {
  const t = useT('pdfViewer');
  const structures = useValue(review.$structures);
  const shown = useValue(review.$shown);
  const state = useValue(model.$load).state;
  if ((state !== 'pdf' && state !== 'image') || structures.length === 0) return null;
  const name = t('structures', { count: structures.length });
  return (
    <button type="button" part="structures-toggle" className={`${btn} gap-1 ${pressed(shown)}`} aria-pressed={shown} aria-label={name} title={shown ? t('structures_hide') : t('structures_show')} onClick={review.toggleShown}>
      <ToolIcon name="structures" />
      <span className="csai-tb-label">{name}</span>
    </button>
  );
}

/** The toolbar: what applies to the document shown (a PDF, an image, or neither yet). */
export function Toolbar({ model, review, searchInput, hasMarkdown, canDownload }: { model: Model; review: StructureReview | null; searchInput: RefObject<HTMLInputElement | null>; hasMarkdown: boolean; canDownload: boolean }) {
  const t = useT('pdfViewer');
  const state = useValue(model.$load).state;
  const pdf = state === 'pdf';
  return (
    <div part="toolbar" role="toolbar" aria-label={t('toolbar')} className="csai-pdf-toolbar flex flex-wrap items-center gap-2 p-2 border-b border-line">
      {pdf && <PageNav model={model} />}
      {(pdf || state === 'image') && <ZoomControls model={model} pdf={pdf} />}
      {pdf && <SearchBox model={model} input={searchInput} />}
      <span className="flex-1" />
      {review && <StructuresToggle model={model} review={review} />}
      <SecondaryControls model={model} hasMarkdown={hasMarkdown} canDownload={canDownload} />
    </div>
  );
}
