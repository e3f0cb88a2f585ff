import { describe, expect, it, vi } from 'vitest';
import { attachStyles, widgetStyles } from '../../src/widgets/shared/styles';

const rules = () => Array.from(widgetStyles().sheets[1]!.cssRules, (r) => r.cssText.replace(/\s+/g, '')).join('\n');
const flush = () => new Promise((r) => setTimeout(r, 0));
// Without the build's generated rules every class is compiled by twind, which loads on first need.
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 5 });

describe('widget styles', () => {
  it('shares one twind sheet and one base sheet among all shadow roots, none on the document', () => {
    const a = document.createElement('div').attachShadow({ mode: 'open' });
    const b = document.createElement('div').attachShadow({ mode: 'open' });
    attachStyles(a)();
    attachStyles(b)();
    expect(a.adoptedStyleSheets).toHaveLength(2);
    expect(a.adoptedStyleSheets[0]).toBe(b.adoptedStyleSheets[0]);
    expect(a.adoptedStyleSheets[1]).toBe(b.adoptedStyleSheets[1]);
    expect(document.adoptedStyleSheets).toHaveLength(0);
    expect(document.querySelectorAll('style')).toHaveLength(0);
  });

  it('does not adopt the sheets twice when attached again', () => {
    const root = document.createElement('div').attachShadow({ mode: 'open' });
    attachStyles(root)();
    attachStyles(root)();
    expect(root.adoptedStyleSheets).toHaveLength(2);
  });

  it('generates rules for classes present and added later, and stops when detached', async () => {
    const root = document.createElement('div').attachShadow({ mode: 'open' });
    root.innerHTML = '<p class="gap-[7px]"></p>';
    const detach = attachStyles(root);
    await eventually(() => expect(rules()).toContain('gap:7px'));
    const added = document.createElement('span');
    added.className = 'gap-[9px]';
    root.append(added);
    await eventually(() => expect(rules()).toContain('gap:9px'));
    added.className = 'gap-[11px]';
    await eventually(() => expect(rules()).toContain('gap:11px'));
    detach();
    added.className = 'gap-[13px]';
    await flush();
    expect(rules()).not.toContain('gap:13px');
  });

  it('maps the theme names to the --csai custom properties', async () => {
    const root = document.createElement('div').attachShadow({ mode: 'open' });
    root.innerHTML = '<p class="text-accent bg-surface rounded-csai font-csai"></p>';
    attachStyles(root)();
    await eventually(() => expect(rules()).toMatch(/color:var\(--csai-c-accent\)/));
    expect(rules()).toMatch(/background-color:var\(--csai-c-surface\)/);
    expect(rules()).toMatch(/border-radius:var\(--csai-c-radius\)/);
    expect(rules()).toMatch(/font-family:var\(--csai-c-font\)/);
  });
});
