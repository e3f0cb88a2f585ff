// The parsed document's markdown as sanitised DOM: markdown-it without raw HTML, then DOMPurify
// returning a fragment (no innerHTML of strings anywhere), links opened safely. The parser's
// page markers (`<!-- page N -->`) become small page labels (buttons with `data-page`); any
// other HTML comment is dropped, never shown as text.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { noInlineStyle } from '../shared/md-no-inline-style';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false }).use(noInlineStyle);

/** A private-use character around the page number: cannot come from the parser's text. */
const MARK = '\uE000';
const PAGE_MARKER = /^[ \t]*<!--\s*page\s+(\d+)\s*-->[ \t]*$/gim;
const COMMENT = /<!--[\s\S]*?-->/g;

/** The markdown with page markers as paragraphs of their own (`MARK N MARK`) and no other comments. */
function withPageTokens(markdown: string): string {
  return markdown
    .replaceAll(MARK, '')
    .replace(PAGE_MARKER, (_, n: string) => `\n\n${MARK}${n}${MARK}\n\n`)
    .replace(COMMENT, '');
}

/**
 * Renders markdown into a sanitised fragment; only http(s) and in-page links survive. Page
 * markers become `<button type="button" class="csai-md-page" data-page="N">` labelled by `pageLabel`.
 */
export function markdownFragment(markdown: string, pageLabel: (page: number) => string = (n) => String(n)): DocumentFragment {
  const purify = DOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!/^(https?:|#)/i.test(href)) node.removeAttribute('href');
      else if (!href.startsWith('#')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    }
    // DESIGN §9: remote images in rendered text are not loaded.
    if (node.tagName === 'IMG') node.remove();
  });
  const fragment = purify.sanitize(md.render(withPageTokens(markdown)), { RETURN_DOM_FRAGMENT: true, FORBID_TAGS: ['style', 'img'], FORBID_ATTR: ['style'] });
  const token = new RegExp(`^${MARK}(\\d+)${MARK}$`);
  for (const p of [...fragment.querySelectorAll('p')]) {
    const m = token.exec(p.textContent ?? '');
    if (!m) continue;
    const page = Number(m[1]);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'csai-md-page';
    button.dataset['page'] = String(page);
    button.textContent = pageLabel(page);
    p.replaceWith(button);
  }
  // A marker inside other text (not on a line of its own) is dropped rather than shown.
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeValue?.includes(MARK)) n.nodeValue = n.nodeValue.replace(new RegExp(`${MARK}\\d*${MARK}?`, 'g'), '');
  }
  return fragment;
}
