import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { domToMarkdown, type DomNode } from './markdown';

/** The readable article of an HTML page. */
export interface ExtractedArticle {
  title: string;
  /** The site's own name (og:site_name) or the host name. */
  site: string;
  /** The article as markdown, tables kept. */
  markdown: string;
  /** A few sentences of the article, plain text. */
  excerpt: string;
  byline: string | null;
  lang: string | null;
  publishedTime: string | null;
}

const EXCERPT_CHARS = 300;
const SCRIPTS = new Set(['script', 'style', 'noscript', 'template']);
const NEVER_ARTICLE = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'form', 'nav', 'footer', 'aside']);

/**
 * Readability asks for the elements of several tag names at once with `querySelectorAll`, which
 * linkedom answers through css-select, element by element (a good part of Readability's time on
 * a page); one walk of the tree gives the same elements in the same (document) order.
 */
function allWithTags(node: ParentNode, tagNames: readonly string[]): Element[] {
  const wanted = new Set(tagNames.map((t) => t.toLowerCase()));
  const found: Element[] = [];
  walkElements(node, (el) => {
    if (wanted.has(el.localName)) found.push(el);
  });
  return found;
}

/**
 * Calls `visit` for each element under `node` in document order (by `localName`: linkedom's
 * `tagName` and `getElementsByTagName` upper-case every element's name on each call).
 * `visit` returning false skips the element's descendants.
 */
function walkElements(node: ParentNode, visit: (el: Element) => boolean | void) {
  const stack: Element[] = [];
  for (let c = node.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  for (let el = stack.pop(); el; el = stack.pop()) {
    if (visit(el) === false) continue;
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
}

/** The host name as a site's name ("www.example.com" → "example.com"). */
export const siteOf = (url: URL) => url.hostname.replace(/^www\./, '');

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function excerptOf(text: string): string {
  const flat = squash(text);
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}

/** A page title without the site's name tacked on ("Aspirin - Pharma Wiki" → "Aspirin"). */
function withoutSite(title: string, site: string): string {
  if (!site) return title;
  const escaped = site.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const stripped = title.replace(new RegExp(`\\s*[-|–—_·:]\\s*${escaped}\\s*$`, 'i'), '').trim();
  return stripped || title;
}

/**
 * Bytes of an HTML page as text: the charset of the Content-Type header, else of a
 * `<meta charset>` near the top, else UTF-8 (GBK and GB18030 pages are common in China).
 */
export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const declared = /charset\s*=\s*["']?([\w-]+)/i.exec(contentType ?? '')?.[1] ?? /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  if (declared) {
    try {
      return new TextDecoder(declared.toLowerCase()).decode(body);
    } catch {
      // An unknown label: read as UTF-8 below.
    }
  }
  return new TextDecoder('utf-8').decode(body);
}

/**
 * The readable article of an HTML page (`@mozilla/readability` on `linkedom`) as markdown
 * (`node-html-markdown`, which keeps tables); links and images made absolute against `url`.
 * A page Readability finds no article in gives its whole body.
 */
export function extractArticle(html: string, url: URL): ExtractedArticle {
  const { document } = parseHTML(html);
  const head = document.head ?? document.documentElement;
  // Readability makes links absolute against the document's base URI.
  const base = document.createElement('base');
  base.setAttribute('href', url.href);
  head?.prepend(base);
  const pageTitle = squash(document.title ?? '');
  const siteName = document.querySelector('meta[property="og:site_name"]')?.getAttribute('content');
  // What is never the article goes before Readability scores the page: fewer nodes to weigh
  // (navigation bars and link lists are most of a news page's elements).
  const never: Element[] = [];
  walkElements(document, (el) => {
    if (!NEVER_ARTICLE.has(el.localName)) return true;
    never.push(el);
    return false;
  });
  for (const el of never) el.remove();
  let article: ReturnType<Readability<DomNode>['parse']> = null;
  try {
    // The article comes back as its element, turned into markdown from the DOM (no HTML text in between).
    const reader = new Readability<DomNode>(document, { charThreshold: 200, serializer: (node) => node });
    Object.defineProperty(reader, '_getAllNodesWithTag', { value: allWithTags });
    article = reader.parse();
  } catch {
    article = null;
  }
  if (article?.content) {
    const site = squash(article.siteName ?? siteName ?? '') || siteOf(url);
    return {
      title: withoutSite(squash(article.title ?? '') || pageTitle, site) || siteOf(url),
      site,
      markdown: domToMarkdown(article.content),
      excerpt: excerptOf(article.excerpt || article.textContent || ''),
      byline: article.byline ? squash(article.byline) : null,
      lang: article.lang ?? null,
      publishedTime: article.publishedTime ?? null,
    };
  }
  // No article found (a listing, a tiny page): the body as it is, scripts and styles left out.
  const { document: whole } = parseHTML(html);
  const hidden: Element[] = [];
  walkElements(whole, (el) => {
    if (!SCRIPTS.has(el.localName)) return true;
    hidden.push(el);
    return false;
  });
  for (const el of hidden) el.remove();
  const site = squash(siteName ?? '') || siteOf(url);
  return {
    title: withoutSite(pageTitle, site) || siteOf(url),
    site,
    markdown: whole.body ? domToMarkdown(whole.body) : '',
    excerpt: excerptOf(whole.body?.textContent ?? ''),
    byline: null,
    lang: whole.documentElement?.getAttribute('lang') ?? null,
    publishedTime: null,
  };
}
