import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FirstPaintFile } from '../../src/contract/first-paint';
import { firstPaintFile } from '../../src/server/first-paint';
import { renderFirstPaints } from '../../scripts/vite-first-paint';

const root = path.resolve(import.meta.dirname, '../..');

// Home's first paint as the build renders it (from the page's own components, through Vite's SSR
// loader). How the browser takes it over is tested end to end (tests/e2e/first-paint.spec.ts).
describe("home's server-rendered first paint, as built", () => {
  let paints: FirstPaintFile;
  beforeAll(async () => {
    paints = await renderFirstPaints(root);
  }, 120_000);
  const shadowOf = (html: string) => /<template shadowrootmode="open">([^]*)<\/template>/.exec(html)?.[1] ?? '';

  it('has a variant for each language and sidebar state, each in its own language', () => {
    expect(Object.keys(paints).sort()).toEqual(['en-closed', 'en-open', 'zh-closed', 'zh-open']);
    // What the server reads it with.
    expect(firstPaintFile.safeParse(paints).success).toBe(true);
    for (const key of ['zh-open', 'zh-closed']) {
      expect(paints[key]!.html).toContain('<h1 class="home__title">有什么可以帮您？</h1>');
      expect(paints[key]!.html).toContain('placeholder="输入问题，Enter 发送，Shift+Enter 换行"');
      expect(paints[key]!.html).toContain('<csai-ask lang="zh-CN"');
    }
    for (const key of ['en-open', 'en-closed']) {
      expect(paints[key]!.html).toContain('<h1 class="home__title">How can I help?</h1>');
      expect(paints[key]!.html).toContain('placeholder="Ask a question. Enter sends, Shift+Enter adds a line"');
      expect(paints[key]!.html).toContain('<csai-ask lang="en"');
      expect(paints[key]!.html).not.toMatch(/[\u4e00-\u9fff]/);
    }
    expect(paints['zh-open']!.html).toContain('<div class="shell" data-state="expanded">');
    expect(paints['zh-closed']!.html).toContain('<div class="shell" data-state="collapsed">');
  });

  it("is home's first frame: the rail's entries and the examples are not in it yet", () => {
    const html = paints['zh-open']!.html;
    expect(html).toMatch(/^<div id="first-paint" lang="zh-CN">/);
    expect(html).toContain('<aside class="sidebar sidebar--docked" data-testid="sidebar" data-state="expanded"></aside>');
    expect(html).not.toContain('examples-title');
  });

  it('holds the question box as a form that sends without script: q, required, a submit button', () => {
    const box = shadowOf(paints['zh-open']!.html);
    expect(box).toContain('<form data-csai-form="" action="/" method="get">');
    expect(box).toMatch(/<textarea part="input" name="q" required=""[^>]*><!--csai-q--><\/textarea>/);
    expect(box).toMatch(/<button type="submit" part="send"[^>]*>发送<\/button>/);
    // Only the question is sent: nothing else in the form has a name.
    expect(box.match(/ name="/g)).toHaveLength(1);
    // Its other controls wait for the live box: disabled (a click then reaches the live one), and no
    // file input to lose a file given to it.
    expect(box).not.toContain('type="file"');
    expect(box).toMatch(/<button type="button" disabled=""[^>]*part="tab tab-knowledge"/);
    expect(box).toMatch(/<select disabled=""[^>]*part="search-type"/);
    expect(box.match(/<button /g)!.length).toBe(box.match(/<button [^>]*disabled=""/g)!.length + 1);
    expect(box).not.toMatch(/<button type="submit" part="send"[^>]*disabled=""/);
    expect(box).toContain('data-csai-prerendered=""');
  });

  it('carries no inline style attribute (the CSP allows only its one style element, by hash)', () => {
    for (const { html, style } of Object.values(paints)) {
      expect(html).not.toMatch(/ style="/);
      expect(html.match(/<style/g)).toHaveLength(1);
      expect(html).toContain(`<style data-csai-prerendered="">${style}</style>`);
    }
  });

  it("its style element has the base rules and a rule for each of the box's classes, not the whole sheet", () => {
    const { html, style } = paints['zh-open']!;
    expect(style).toContain(':host { all: initial; display: block; }');
    expect(style).toContain('.rounded-csai{border-radius:var(--csai-c-radius)}');
    expect(style).toContain('background-color:var(--csai-c-accent)');
    expect(style).toContain('form[data-csai-form]:invalid [part~="send"]');
    const classes = new Set([...shadowOf(html).matchAll(/ class="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/)));
    for (const cls of ['flex-col', 'resize-y', 'text-accent-fg', 'border-line']) {
      expect(classes).toContain(cls);
      expect(style).toContain(`.${cls}{`);
    }
    // A class the box does not use is left out.
    expect(style).not.toContain('.animate-spin');
    expect(style.length).toBeLessThan(12_000);
  });
});
