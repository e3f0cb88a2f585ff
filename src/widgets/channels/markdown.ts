// The one render path of model output (DESIGN §9), for streaming and history alike:
// markdown-it (raw HTML off) + KaTeX as MathML (no inline styles, so a strict CSP holds, no
// fonts to fetch) + DOMPurify as the last word. Remote images are never loaded: markdown
// images become links; links are http(s) only and open in a new tab with rel=noopener.
// SMILES in inline code or ```smiles fences are drawn by <csai-molecule>. Citations [n] become
// chips linking the document viewer at the cited page. Loaded lazily by <csai-channels> only.
import MarkdownIt from 'markdown-it';
import { noInlineStyle } from '../shared/md-no-inline-style';
import * as katexPluginModule from '@vscode/markdown-it-katex';
import katex from 'katex';
import 'katex/contrib/mhchem';
import createDOMPurify from 'dompurify';
import { isWebCitation, type Citation, type DocCitation } from '../../contract/channel';

type KatexPlugin = typeof katexPluginModule.default;
/** The plugin is CommonJS: depending on the bundler's interop its function sits at the top or under `default`. */
function katexPluginOf(m: unknown): KatexPlugin {
  if (typeof m === 'function') return m as KatexPlugin;
  if (m && typeof m === 'object' && 'default' in m) return katexPluginOf(m.default);
  throw new Error('markdown-it-katex did not load');
}
const katexPlugin = katexPluginOf(katexPluginModule);

const mathml: typeof katex = { ...katex, renderToString: (tex, options) => katex.renderToString(tex, { ...options, output: 'mathml', throwOnError: false, trust: false }) };

/** A SMILES string as the answer writes it (SPEC prompt: in inline code): organic-subset atoms, brackets, bonds, rings. */
const SMILES = /^(?:Cl|Br|[BCNOPSFI]|[bcnops]|\[[A-Za-z0-9@+\-:#]+\]|[-=#$:/\\().%0-9@+])+$/;
/** Whether inline code looks like a SMILES string (and not a word or a number). */
export function looksLikeSmiles(text: string): boolean {
  const s = text.trim();
  return s.length >= 2 && s.length <= 300 && SMILES.test(s) && /[A-Za-z]/.test(s) && !/^[0-9.]+$/.test(s) && (/[a-z()=#\[\]0-9]/.test(s) || s.length >= 3);
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Words the rendered markup needs. */
export interface RenderWords {
  /** Text of a link that replaces an image, e.g. `图片：{alt}`. */
  image: (alt: string) => string;
  /** Title of a citation chip. */
  citation: (c: Citation) => string;
}

let md: MarkdownIt | undefined;
let words: RenderWords = { image: (alt) => `图片：${alt}`, citation: (c) => c.title };

function markdown(): MarkdownIt {
  if (md) return md;
  md = new MarkdownIt({ html: false, linkify: true, typographer: false }).use(noInlineStyle);
  md.use(katexPlugin, { katex: mathml, throwOnError: false });
  // Images are never loaded: a link to the image stands in.
  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx]!;
    const src = token.attrGet('src') ?? '';
    return `<a href="${escape(src)}" data-image="true">${escape(words.image(token.content || src))}</a>`;
  };
  const molecule = (smiles: string) => `<csai-molecule smiles="${escape(smiles)}"></csai-molecule>`;
  md.core.ruler.push('csai_structures_after_text', structuresAfterText);
  const defaultCode = md.renderer.rules.code_inline!;
  md.renderer.rules.code_inline = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const code = defaultCode(tokens, idx, options, env, self);
    return looksLikeSmiles(token.content) && !token.meta?.drawnAfter ? `${code}${molecule(token.content.trim())}` : code;
  };
  md.renderer.rules.csai_structures = (tokens, idx) => `<div class="csai-structures">${(tokens[idx]!.meta.smiles as string[]).map(molecule).join('')}</div>`;
  const defaultFence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const code = defaultFence(tokens, idx, options, env, self);
    if (token.info.trim().toLowerCase() !== 'smiles') return code;
    return code + token.content.split('\n').map((l) => l.trim()).filter((l) => l && looksLikeSmiles(l)).map(molecule).join('');
  };
  return md;
}

type StateCore = Parameters<Parameters<MarkdownIt['core']['ruler']['push']>[1]>[0];

/**
 * SMILES written inside a sentence or a heading (`阿司匹林（`CC(=O)O…`）通过…`) are drawn below
 * that paragraph, side by side, so the sentence reads on unbroken; a paragraph of SMILES alone,
 * a table cell and a fence draw each structure where it stands.
 */
function structuresAfterText(state: StateCore) {
  const tokens = state.tokens;
  for (let i = tokens.length - 2; i > 0; i--) {
    const inline = tokens[i]!;
    const open = tokens[i - 1]!.type;
    if (inline.type !== 'inline' || (open !== 'paragraph_open' && open !== 'heading_open') || !inline.children) continue;
    const smiles = inline.children.filter((t) => t.type === 'code_inline' && looksLikeSmiles(t.content));
    if (!smiles.length) continue;
    const otherText = inline.children.some((t) => !smiles.includes(t) && t.content.trim() !== '' && t.type !== 'softbreak' && t.type !== 'hardbreak');
    if (!otherText) continue;
    for (const t of smiles) t.meta = { ...t.meta, drawnAfter: true };
    const structures = new state.Token('csai_structures', 'div', 0);
    structures.block = true;
    structures.meta = { smiles: [...new Set(smiles.map((t) => t.content.trim()))] };
    tokens.splice(i + 2, 0, structures); // after the paragraph's (or heading's) close
  }
}

let purifier: ReturnType<typeof createDOMPurify> | undefined;
function purify() {
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    if (!/^https?:\/\//i.test(href)) {
      node.removeAttribute('href');
      return;
    }
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  return purifier;
}

/** Tags never kept, whatever produced them. */
const FORBID_TAGS = ['img', 'image', 'picture', 'source', 'video', 'audio', 'track', 'iframe', 'frame', 'object', 'embed', 'script', 'style', 'link', 'meta', 'base', 'form', 'input', 'button', 'textarea', 'select', 'svg', 'template', 'noscript'];
const FORBID_ATTR = ['style', 'src', 'srcset', 'action', 'formaction', 'xlink:href', 'background', 'poster', 'ping'];

/** Markdown → sanitised DOM fragment (no citations yet). Exported for tests. */
export function sanitisedFragment(text: string): DocumentFragment {
  return sanitise(markdown().render(text));
}

/** Generated markup → DOM through the one DOMPurify configuration of model output. */
function sanitise(html: string): DocumentFragment {
  return purify().sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOWED_URI_REGEXP: /^https?:\/\//i,
    ALLOW_DATA_ATTR: false,
    CUSTOM_ELEMENT_HANDLING: { tagNameCheck: /^csai-molecule$/, attributeNameCheck: /^smiles$/, allowCustomizedBuiltInElements: false },
  });
}

/**
 * Draws SMILES (e.g. those of a question) as <csai-molecule> elements into `target`, through the
 * same sanitising path as answers; strings that do not look like SMILES are left out.
 */
export function renderMolecules(target: Element, smiles: readonly string[], lang?: string): void {
  const html = smiles.filter(looksLikeSmiles).map((s) => `<csai-molecule smiles="${escape(s.trim())}"></csai-molecule>`).join('');
  target.replaceChildren(inLanguage(sanitise(html), lang));
}

/** The drawings of a fragment in the surrounding element's language (set here: the sanitiser lets no attribute but `smiles` through). */
function inLanguage(fragment: DocumentFragment, lang: string | undefined): DocumentFragment {
  if (lang) for (const el of fragment.querySelectorAll('csai-molecule')) el.setAttribute('lang', lang);
  return fragment;
}

/** The viewer path of a citation (SPEC §2 /pdf_viewer; page from 1, bbox in PDF points). */
export function citationPath(c: DocCitation): string {
  const q = new URLSearchParams({ docId: c.docId });
  if (c.page !== null) q.set('page', String(c.page));
  if (c.bbox) q.set('bbox', c.bbox.map((n) => Math.round(n * 100) / 100).join(','));
  return `/pdf_viewer?${q.toString()}`;
}

/** Turns `[n]` in text (outside code and links) into citation chips for the known citations. */
function linkCitations(root: DocumentFragment, citations: readonly Citation[]) {
  if (!citations.length) return;
  const byN = new Map(citations.map((c) => [c.n, c]));
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n instanceof Text && /\[\d+\]/.test(n.data) && !n.parentElement?.closest('code, pre, a, math')) texts.push(n);
  }
  for (const node of texts) {
    const parts = node.data.split(/(\[\d+\])/);
    const out = document.createDocumentFragment();
    for (const part of parts) {
      const m = /^\[(\d+)\]$/.exec(part);
      const c = m ? byN.get(Number(m[1])) : undefined;
      if (!c) {
        if (part) out.append(part);
        continue;
      }
      const chip = document.createElement('a');
      chip.setAttribute('part', 'citation');
      if (isWebCitation(c)) {
        // An online result opens the page itself in a new tab, telling it nothing of this site.
        chip.setAttribute('href', c.url);
        chip.setAttribute('target', '_blank');
        chip.setAttribute('rel', 'noopener noreferrer');
        chip.dataset.web = c.kind;
      } else {
        chip.setAttribute('href', citationPath(c));
        chip.dataset.cite = String(c.n);
      }
      chip.title = words.citation(c);
      chip.textContent = `[${c.n}]`;
      out.append(chip);
    }
    node.replaceWith(out);
  }
}

/**
 * Renders an answer into `target` (replacing what was there): the one path for streamed and
 * stored answers alike.
 */
export function renderAnswer(target: Element, text: string, citations: readonly Citation[], renderWords?: RenderWords, lang?: string): void {
  if (renderWords) words = renderWords;
  const fragment = inLanguage(sanitisedFragment(text), lang);
  linkCitations(fragment, citations);
  target.replaceChildren(fragment);
}

/** Languages of the fenced blocks that get a "运行" button (they run in the server's Python sandbox). */
const RUNNABLE = /(^|\s)language-(python3?|py)(\s|$)/;

/**
 * Puts a "运行" button (`data-run-code` = the block's index among the answer's Python blocks, part
 * `run-code`) and an empty place for its result (`data-code-run-slot`, part `code-run-slot`) after
 * each rendered Python block of an answer; the answer's click handler sends that block's text to
 * POST /code/run. Returns the result places in block order.
 */
export function addRunButtons(target: Element, label: string, title: string): Element[] {
  const slots: Element[] = [];
  for (const code of target.querySelectorAll('pre > code')) {
    if (!RUNNABLE.test(code.className)) continue;
    const pre = code.parentElement!;
    const block = slots.length;
    const existing = pre.nextElementSibling;
    if (existing?.hasAttribute('data-run-code') && existing.nextElementSibling?.hasAttribute('data-code-run-slot')) {
      slots.push(existing.nextElementSibling);
      continue;
    }
    const doc = target.ownerDocument;
    const button = doc.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.title = title;
    button.setAttribute('data-run-code', String(block));
    button.setAttribute('part', 'run-code');
    button.className = 'csai-run-code';
    const slot = doc.createElement('div');
    slot.setAttribute('data-code-run-slot', String(block));
    slot.setAttribute('part', 'code-run-slot');
    pre.after(button, slot);
    slots.push(slot);
  }
  return slots;
}

