// The parsed document's markdown as sanitised DOM: markdown-it without raw HTML, then DOMPurify
// returning a fragment (no innerHTML of strings anywhere), links opened safely.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** Renders markdown into a sanitised fragment; only http(s) and in-page links survive. */
export function markdownFragment(markdown: string): DocumentFragment {
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
  return purify.sanitize(md.render(markdown), { RETURN_DOM_FRAGMENT: true, FORBID_TAGS: ['style', 'img'] });
}
