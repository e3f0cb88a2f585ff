// The elements' twind configuration, shared by the browser (src/widgets/shared/styles.ts) and the
// build, which generates the rules of every class written in the elements' sources ahead of time
// (scripts/vite-widget-css.ts). No DOM here: the build runs it in Node.
import { defineConfig } from '@twind/core';
import presetTailwind from '@twind/preset-tailwind';

/**
 * Theme colours read custom properties set on each element's root (see `baseCss`), which in turn
 * read the page-wide `--csai-*` tokens, so a page re-themes every element without a rebuild.
 * `preflight: false` for the classes generated in the browser when the build already wrote the
 * preflight (their sheet comes after the build's, where a later preflight would override them).
 */
export const twindConfig = ({ preflight = true }: { preflight?: boolean } = {}) =>
  defineConfig({
    presets: [presetTailwind({ disablePreflight: !preflight })],
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
