// Rules twind cannot express: pdf.js's text layer (from pdfjs-dist/web/pdf_viewer.css, the part
// the viewer needs), search marks and the cited box. One constructable sheet, adopted by each
// viewer's shadow root next to the shared ones.

const css = `
:host { height: 75vh; min-height: 20rem; }
.csai-root { height: 100%; }
.textLayer { position: absolute; text-align: initial; inset: 0; overflow: clip; opacity: 1; line-height: 1;
  text-size-adjust: none; forced-color-adjust: none; transform-origin: 0 0; caret-color: CanvasText; z-index: 0;
  --min-font-size: 1; --text-scale-factor: calc(var(--total-scale-factor) * var(--min-font-size)); --min-font-size-inv: calc(1 / var(--min-font-size)); }
.textLayer :is(span, br) { color: transparent; position: absolute; white-space: pre; cursor: text; transform-origin: 0% 0%; }
.textLayer > :not(.markedContent), .textLayer .markedContent span:not(.markedContent) { z-index: 1; --font-height: 0;
  font-size: calc(var(--text-scale-factor) * var(--font-height)); --scale-x: 1; --rotate: 0deg;
  transform: rotate(var(--rotate)) scaleX(var(--scale-x)) scale(var(--min-font-size-inv)); }
.textLayer .markedContent { display: contents; }
.textLayer span[role="img"] { user-select: none; cursor: default; }
.textLayer ::selection { background: rgb(0 0 255 / 0.25); }
.textLayer br::selection { background: transparent; }
.textLayer .endOfContent { display: block; position: absolute; inset: 100% 0 0; z-index: 0; cursor: default; user-select: none; }
/* Size and layout containment: each page has its own size, so laying out 500 of them (and
   drawing inside one) never measures the others' contents. */
.csai-pdf-page { position: relative; margin: 12px auto; background: #fff; box-shadow: 0 1px 3px rgb(0 0 0 / 0.25); contain: size layout style; }
/* Layout of the page column lives here, not only in twind classes: twind adds rules a moment
   after elements appear, and a late margin or height would move or block a jump. */
.csai-pdf-base { display: flex; flex-direction: column; height: 100%; }
.csai-pdf-body { display: flex; flex: 1 1 0%; min-height: 0; }
/* overflow-y: scroll — the scrollbar never appears later and changes the fit-width scale. */
.csai-pdf-pages { position: relative; flex: 1 1 0%; min-width: 0; overflow-x: auto; overflow-y: scroll; }
/* The page's loading label goes as soon as the canvas is drawn (PdfPage sets data-rendered then). */
.csai-pdf-page[data-rendered="true"] > .csai-pdf-loading { display: none; }
.csai-pdf-mark { background: rgb(250 204 21 / 0.45); border-radius: 2px; z-index: 2; }
.csai-pdf-mark.is-current { background: rgb(249 115 22 / 0.55); outline: 2px solid rgb(234 88 12); }
/* Recognised structures: a faint dashed frame, clear on hover/focus, solid when open in the panel. */
.csai-pdf-structure { z-index: 3; padding: 0; background: transparent; border: 1px dashed rgb(37 99 235 / 0.45); border-radius: 2px; cursor: pointer; }
.csai-pdf-structure:hover, .csai-pdf-structure:focus-visible { background: rgb(37 99 235 / 0.08); border: 2px solid var(--csai-c-accent); outline: none; }
.csai-pdf-structure.is-selected { border: 2px solid var(--csai-c-accent); background: rgb(37 99 235 / 0.06); }
.csai-pdf-structure[data-corrected="true"] { border-color: rgb(22 163 74 / 0.6); }
.csai-pdf-citation { z-index: 2; background: rgb(250 204 21 / 0.28); outline: 3px solid var(--csai-c-accent); outline-offset: 2px; border-radius: 2px; }
/* The toolbar on a narrow viewer (a phone): page navigation and zoom stay, the secondary
   controls keep only their icons, and the search field opens from its button on a row of its own. */
.csai-pdf-base { container-type: inline-size; }
.csai-pdf-toolbar .csai-tb-search-toggle { display: none; }
@container (max-width: 40rem) {
  .csai-pdf-toolbar .csai-tb-label { display: none; }
  .csai-pdf-toolbar .csai-tb-search-toggle { display: inline-flex; }
  .csai-pdf-toolbar .csai-tb-search:not(.is-open) { display: none; }
  .csai-pdf-toolbar .csai-tb-search.is-open { flex: 1 1 100%; order: 10; }
  .csai-pdf-toolbar .csai-tb-search.is-open input { flex: 1 1 auto; width: auto; min-width: 0; }
}
.csai-md-page { display: inline-block; margin: 0.75em 0 0.25em; padding: 0 0.5em; font-size: 0.8em; color: var(--csai-c-muted);
  border: 1px solid var(--csai-c-line); border-radius: 999px; cursor: pointer; background: transparent; }
.csai-md-page:hover, .csai-md-page:focus-visible { color: var(--csai-c-accent); border-color: var(--csai-c-accent); }
.csai-md { line-height: 1.7; overflow-wrap: anywhere; }
.csai-md h1, .csai-md h2, .csai-md h3, .csai-md h4 { font-weight: 600; margin: 1em 0 0.5em; line-height: 1.3; }
.csai-md h1 { font-size: 1.4em; } .csai-md h2 { font-size: 1.25em; } .csai-md h3 { font-size: 1.1em; }
.csai-md p, .csai-md ul, .csai-md ol, .csai-md table, .csai-md pre { margin: 0.6em 0; }
.csai-md ul { list-style: disc; padding-left: 1.5em; } .csai-md ol { list-style: decimal; padding-left: 1.5em; }
.csai-md table { border-collapse: collapse; display: block; overflow-x: auto; }
.csai-md th, .csai-md td { border: 1px solid var(--csai-c-line); padding: 0.25em 0.5em; }
.csai-md [data-align="left"] { text-align: left; } .csai-md [data-align="center"] { text-align: center; } .csai-md [data-align="right"] { text-align: right; }
.csai-md code, .csai-md pre { font-family: ui-monospace, monospace; font-size: 0.92em; }
.csai-md pre { overflow-x: auto; padding: 0.5em; border: 1px solid var(--csai-c-line); }
.csai-md a { color: var(--csai-c-accent); text-decoration: underline; }
.csai-md blockquote { border-left: 3px solid var(--csai-c-line); padding-left: 0.75em; color: var(--csai-c-muted); }
`;

let sheet: CSSStyleSheet | undefined;

/** Adds the viewer's sheet to a shadow root; returns a function that removes it. */
export function adoptViewerCss(root: ShadowRoot): () => void {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  const own = sheet;
  if (!root.adoptedStyleSheets.includes(own)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, own];
  return () => {
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== own);
  };
}
