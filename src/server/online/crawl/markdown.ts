/**
 * HTML → markdown straight from the DOM Readability left (linkedom nodes): headings, paragraphs,
 * lists (nested), tables (columns padded), links and images (http(s) only), emphasis, code,
 * quotes and rules. Working on the nodes saves serialising the article and parsing it again
 * (which node-html-markdown did, and which was most of a page's extraction time).
 */

/** What the walk needs of a DOM node (linkedom's, or the browser's). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  getAttribute?(name: string): string | null;
}

const TEXT = 3;
const ELEMENT = 1;

/** Never content. */
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'IFRAME', 'SVG', 'CANVAS', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OBJECT', 'EMBED', 'HEAD', 'TITLE', 'META', 'LINK', 'BASE']);
/** Elements that end the running paragraph and hold blocks. */
const CONTAINERS = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'NAV', 'FIGURE', 'FIGCAPTION', 'DETAILS', 'SUMMARY', 'CENTER', 'ADDRESS',
  'DL', 'DT', 'DD', 'FIELDSET', 'LEGEND', 'BODY', 'HTML', 'CAPTION', 'HGROUP', 'PICTURE',
]);
const HEADINGS: Record<string, number> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };
const BLOCKS = new Set([...CONTAINERS, ...Object.keys(HEADINGS), 'UL', 'OL', 'LI', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'TD', 'TH', 'PRE', 'BLOCKQUOTE', 'HR']);

const attr = (node: DomNode, name: string) => node.getAttribute?.(name) ?? null;

function* children(node: DomNode): Generator<DomNode> {
  for (let c = node.firstChild; c; c = c.nextSibling) yield c;
}

/** Characters that would be read as markdown in running text. */
const escapeText = (text: string) => text.replace(/[\\*_`[\]<>]/g, '\\$&');
/** A link or image target as markdown accepts it: spaces and parentheses percent-encoded. */
const target = (url: string) => url.trim().replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
const isWebUrl = (url: string | null): url is string => !!url && /^(https?:|mailto:)/i.test(url.trim());

/** `**` around text, its outer spaces kept outside (`** x**` is not emphasis). */
function wrap(inner: string, mark: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return m[2] ? `${m[1]}${mark}${m[2]}${mark}${m[3]}` : inner;
}

interface InlineOptions {
  /** In a table cell: line breaks become spaces and `|` is escaped. */
  cell?: boolean;
}

/** The inline markdown of a node's content (whitespace collapsed, not trimmed). */
function inline(node: DomNode, opts: InlineOptions): string {
  let out = '';
  for (const child of children(node)) out += inlineOf(child, opts);
  return out;
}

function inlineOf(node: DomNode, opts: InlineOptions): string {
  if (node.nodeType === TEXT) {
    const text = escapeText((node.textContent ?? '').replace(/\s+/g, ' '));
    return opts.cell ? text.replace(/\|/g, '\\|') : text;
  }
  if (node.nodeType !== ELEMENT) return '';
  const tag = node.nodeName.toUpperCase();
  if (SKIP.has(tag)) return '';
  switch (tag) {
    case 'BR':
      return opts.cell ? ' ' : '  \n';
    case 'STRONG':
    case 'B':
      return wrap(inline(node, opts), '**');
    case 'EM':
    case 'I':
      return wrap(inline(node, opts), '_');
    case 'DEL':
    case 'S':
    case 'STRIKE':
      return wrap(inline(node, opts), '~~');
    case 'CODE':
    case 'KBD':
    case 'SAMP': {
      const code = (node.textContent ?? '').replace(/\s+/g, ' ');
      if (!code.trim()) return code;
      const fence = code.includes('`') ? '``' : '`';
      return `${fence}${code.includes('`') ? ` ${code} ` : code}${fence}`;
    }
    case 'A': {
      const text = inline(node, opts);
      const href = attr(node, 'href');
      if (!isWebUrl(href) || !text.trim()) return text;
      return wrapLink(text, href);
    }
    case 'IMG': {
      const src = attr(node, 'src');
      if (!isWebUrl(src)) return '';
      const alt = escapeText((attr(node, 'alt') ?? '').replace(/\s+/g, ' ').trim());
      return `![${alt}](${target(src)})`;
    }
    default:
      // Block elements met inside inline content (a <div> in a <td>) read as their text.
      return BLOCKS.has(tag) ? ` ${inline(node, opts)} ` : inline(node, opts);
  }
}

function wrapLink(text: string, href: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return `${m[1]}[${m[2]}](${target(href)})${m[3]}`;
}

/** Collapses the spaces an inline run gathered; a hard break keeps its line end. */
const tidy = (text: string) =>
  text
    .split('  \n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .filter((line, i, all) => line || (i > 0 && i < all.length - 1))
    .join('  \n')
    .trim();

/** A line that would start a markdown block (`# x`, `- x`, `1. x`, `> x`) is escaped. */
const escapeStart = (text: string) => text.replace(/^(#{1,6}\s|[-+]\s|>|(\d+)\.\s)/, (m, _all, digits: string | undefined) => (digits ? `${digits}\\.${m.slice(digits.length + 1)}` : `\\${m}`));

/** The markdown blocks of a node's content. */
function blocks(node: DomNode, out: string[]): string[] {
  let run = '';
  const flush = () => {
    const text = tidy(run);
    if (text) out.push(escapeStart(text));
    run = '';
  };
  for (const child of children(node)) {
    const tag = child.nodeType === ELEMENT ? child.nodeName.toUpperCase() : '';
    if (!tag || !BLOCKS.has(tag)) {
      if (!SKIP.has(tag)) run += inlineOf(child, {});
      continue;
    }
    flush();
    block(child, tag, out);
  }
  flush();
  return out;
}

function block(node: DomNode, tag: string, out: string[]) {
  const level = HEADINGS[tag];
  if (level) {
    const text = tidy(inline(node, {})).replace(/\s*\n\s*/g, ' ');
    if (text) out.push(`${'#'.repeat(level)} ${text}`);
    return;
  }
  switch (tag) {
    case 'HR':
      out.push('---');
      return;
    case 'PRE': {
      const code = (node.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, '');
      if (!code) return;
      const fence = code.includes('```') ? '~~~~' : '```';
      out.push(`${fence}\n${code}\n${fence}`);
      return;
    }
    case 'BLOCKQUOTE': {
      const inner = blocks(node, []).join('\n\n');
      if (inner) out.push(inner.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n'));
      return;
    }
    case 'UL':
    case 'OL':
      list(node, tag === 'OL', out);
      return;
    case 'TABLE':
      table(node, out);
      return;
    default:
      // Containers, and table or list parts met outside their table or list.
      blocks(node, out);
  }
}

function list(node: DomNode, ordered: boolean, out: string[]) {
  const start = Number(attr(node, 'start'));
  let n = Number.isInteger(start) && start > 0 ? start : 1;
  const items: string[] = [];
  for (const child of children(node)) {
    if (child.nodeType !== ELEMENT) {
      const loose = tidy(escapeText(child.textContent ?? ''));
      if (loose) items.push(`- ${loose}`);
      continue;
    }
    const tag = child.nodeName.toUpperCase();
    if (tag === 'UL' || tag === 'OL') {
      // A list straight inside a list: part of the previous item.
      const nested: string[] = [];
      list(child, tag === 'OL', nested);
      if (nested.length) items.push(nested.join('\n').split('\n').map((l) => `  ${l}`).join('\n'));
      continue;
    }
    const marker = ordered ? `${n++}. ` : '- ';
    // An <li>, or another element a page put straight in the list: its content is the item.
    const body = blocks(child, []);
    const text = body.join('\n');
    if (!text) continue;
    const indent = ' '.repeat(marker.length);
    items.push(marker + text.split('\n').map((l, i) => (i === 0 || !l ? l : indent + l)).join('\n'));
  }
  if (items.length) out.push(items.join('\n'));
}

/** A table: the first row is the header; cells padded to their column's width. */
function table(node: DomNode, out: string[]) {
  const rows: string[][] = [];
  const collect = (n: DomNode) => {
    for (const child of children(n)) {
      if (child.nodeType !== ELEMENT) continue;
      const tag = child.nodeName.toUpperCase();
      if (tag === 'TR') {
        const cells: string[] = [];
        for (const cell of children(child)) {
          if (cell.nodeType !== ELEMENT) continue;
          const t = cell.nodeName.toUpperCase();
          if (t !== 'TD' && t !== 'TH') continue;
          const text = inline(cell, { cell: true }).replace(/\s+/g, ' ').trim();
          cells.push(text);
          const span = Math.min(Number(attr(cell, 'colspan')) || 1, 50);
          for (let i = 1; i < span; i++) cells.push('');
        }
        if (cells.length) rows.push(cells);
      } else if (tag === 'THEAD' || tag === 'TBODY' || tag === 'TFOOT') {
        collect(child);
      } else if (tag === 'CAPTION') {
        const caption = tidy(inline(child, {}));
        if (caption) out.push(caption);
      }
    }
  };
  collect(node);
  if (!rows.length) return;
  const columns = Math.max(...rows.map((r) => r.length));
  const width = Array.from({ length: columns }, (_, c) => Math.max(3, ...rows.map((r) => [...(r[c] ?? '')].length)));
  const line = (cells: string[]) => `| ${width.map((w, c) => (cells[c] ?? '').padEnd(w + (cells[c] ?? '').length - [...(cells[c] ?? '')].length)).join(' | ')} |`;
  out.push([line(rows[0]!), `| ${width.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.slice(1).map(line)].join('\n'));
}

/** The markdown of a node's content (an article element, or a whole body). */
export function domToMarkdown(node: DomNode): string {
  return blocks(node, []).join('\n\n').trim();
}
