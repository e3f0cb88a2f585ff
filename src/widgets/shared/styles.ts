// The one place that knows twind (v1 is unmaintained: keep it replaceable, STACK-NOTES).
// One constructable sheet and one twind instance for every element on the page; each shadow
// root adopts the sheet and has its class attributes translated into rules. Nothing reaches the
// page's own stylesheets, and no <style> element is created (works under a strict CSP).
import { cssom, defineConfig, twind } from '@twind/core';
import presetTailwind from '@twind/preset-tailwind';

/**
 * Theme colours read custom properties set on each element's root (see `baseCss`), which in turn
 * read the page-wide `--csai-*` tokens, so a page re-themes every element without a rebuild.
 */
const config = defineConfig({
  presets: [presetTailwind()],
  hash: false,
  theme: {
    extend: {
      colors: {
        accent: 'var(--csai-c-accent)',
        'accent-fg': 'var(--csai-c-accent-fg)',
        surface: 'var(--csai-c-surface)',
        ink: 'var(--csai-c-ink)',
        muted: 'var(--csai-c-muted)',
        line: 'var(--csai-c-line)',
        info: 'var(--csai-c-info)',
        success: 'var(--csai-c-success)',
        warning: 'var(--csai-c-warning)',
        danger: 'var(--csai-c-danger)',
      },
      borderRadius: { csai: 'var(--csai-c-radius)' },
      fontFamily: { csai: 'var(--csai-c-font)' },
    },
  },
});

/**
 * Base rules every element adopts. `:host` starts from `all: initial` so inherited page styles
 * (fonts, colours, letter-spacing, `visibility`) do not reach inside; `.csai-root` repeats the
 * reset because a page rule such as `* { all: unset }` beats `:host` for the host element itself.
 * Custom properties are not touched by `all`, so `--csai-*` tokens still inherit from the page.
 */
export const baseCss = `
:host { all: initial; display: block; }
:host([hidden]) { display: none !important; }
.csai-root {
  all: initial; display: block; box-sizing: border-box;
  --csai-c-accent: var(--csai-accent, #2563eb);
  --csai-c-accent-fg: var(--csai-accent-contrast, #ffffff);
  --csai-c-radius: var(--csai-radius, 0.5rem);
  --csai-c-font: var(--csai-font, system-ui, -apple-system, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif);
  --csai-c-surface: var(--csai-surface, #ffffff);
  --csai-c-ink: var(--csai-ink, #111827);
  --csai-c-muted: var(--csai-muted, #6b7280);
  --csai-c-line: var(--csai-line, #e5e7eb);
  --csai-c-info: #1d4ed8; --csai-c-success: #15803d; --csai-c-warning: #b45309; --csai-c-danger: #b91c1c;
  font-family: var(--csai-c-font); font-size: 14px; line-height: 1.5; color: var(--csai-c-ink);
  color-scheme: light; visibility: visible; text-align: start;
  /* Native controls (progress bars, checkboxes, radios) in the accent, not the browser's own green/blue. */
  accent-color: var(--csai-c-accent);
}
/* A host that fills a box of set height (the 3D view in a docking card) carries the class csai-fill;
   elsewhere the root keeps its own height: a page's own CSS may leave the host inline, where a
   percentage height left the 3D canvas with no size. */
:host(.csai-fill) .csai-root { height: 100%; }
.csai-root[data-theme="dark"] {
  /* The light default accent is too dark on a dark surface (WCAG AA); a page may set its own. */
  --csai-c-accent: var(--csai-accent-dark, var(--csai-accent, #60a5fa));
  /* Text on the accent: dark on the light default accent of the dark theme (WCAG AA). */
  --csai-c-accent-fg: var(--csai-accent-contrast-dark, #0b1220);
  --csai-c-surface: var(--csai-surface-dark, #111827);
  --csai-c-ink: var(--csai-ink-dark, #f3f4f6);
  --csai-c-muted: var(--csai-muted-dark, #9ca3af);
  --csai-c-line: var(--csai-line-dark, #374151);
  --csai-c-info: #93c5fd; --csai-c-success: #86efac; --csai-c-warning: #fcd34d; --csai-c-danger: #fca5a5;
  color-scheme: dark;
}
`;

function createStyles() {
  const twSheet = new CSSStyleSheet();
  const base = new CSSStyleSheet();
  base.replaceSync(baseCss);
  return { tw: twind(config, cssom(twSheet)), sheets: [base, twSheet] };
}
let shared: ReturnType<typeof createStyles> | undefined;

/** The page's one twind instance and the sheets each shadow root adopts (created on first use). */
export function widgetStyles() {
  return (shared ??= createStyles());
}

/**
 * Styles one shadow root: adopts the shared sheets and generates rules for every class used in
 * it, now and whenever React changes a class attribute. Returns a function that stops watching.
 * (twind's own `observe(tw, root)` has no per-root disconnect, so a small observer does the same.)
 */
export function attachStyles(root: ShadowRoot): () => void {
  const { tw, sheets } = widgetStyles();
  root.adoptedStyleSheets = [...root.adoptedStyleSheets.filter((s) => !sheets.includes(s)), ...sheets];
  const apply = (el: Element) => {
    const cls = el.getAttribute('class');
    if (cls) tw(cls);
  };
  root.querySelectorAll('[class]').forEach(apply);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes' && record.target instanceof Element) apply(record.target);
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        apply(node);
        node.querySelectorAll('[class]').forEach(apply);
      }
    }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}
