// markdown-it writes a table column's alignment as `style="text-align:…"`: an inline style a
// page CSP without 'unsafe-inline' refuses (and reports). This plugin writes `data-align` instead;
// the element's stylesheet aligns by it (answer-css.ts, viewer-css.ts).
import type MarkdownIt from 'markdown-it';

/** Moves table-cell alignment from the `style` attribute to `data-align`. */
export function noInlineStyle(md: MarkdownIt): void {
  for (const rule of ['th_open', 'td_open'] as const) {
    md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
      const token = tokens[idx]!;
      const style = token.attrGet('style');
      if (style !== null) {
        const align = /text-align:\s*(left|center|right)/.exec(style)?.[1];
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
        if (align) token.attrSet('data-align', align);
      }
      return self.renderToken(tokens, idx, options);
    };
  }
}
