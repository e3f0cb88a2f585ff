import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { domToMarkdown } from '../../../src/server/online/crawl/markdown';

// The article's DOM as markdown (crawl/markdown.ts), on linkedom as the page reader uses it.
const md = (html: string) => {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return domToMarkdown(document.body);
};

describe('DOM → markdown', () => {
  it('headings, paragraphs with collapsed whitespace, emphasis, code, rules and line breaks', () => {
    expect(md('<h1>Aspirin</h1><p>  Acetyl<b>salicylic</b>   acid\n is <em>old </em>and <code>CC(=O)O</code>.</p><hr><p>one<br>two</p><h3> Sub <i>head</i> </h3>')).toBe(
      ['# Aspirin', 'Acetyl**salicylic** acid is _old_ and `CC(=O)O`.', '---', 'one  \ntwo', '### Sub _head_'].join('\n\n'),
    );
  });

  it('links and images only with web addresses; targets with spaces or parentheses encoded', () => {
    expect(md('<p><a href="https://e.org/a b(c)">x</a> <a href="javascript:alert(1)">bad</a> <a href="https://e.org/empty"> </a> <img src="https://e.org/i.png" alt="Fig [1]"><img src="data:image/png;base64,AAAA" alt="d"></p>')).toBe(
      '[x](https://e.org/a%20b%28c%29) bad ![Fig \\[1\\]](https://e.org/i.png)',
    );
  });

  it('escapes what would read as markdown in text', () => {
    expect(md('<p>a*b*c _d_ [e] &lt;f&gt; `g` \\</p><p># not a heading</p><p>- not a list</p><p>1. not a list</p>')).toBe(
      ['a\\*b\\*c \\_d\\_ \\[e\\] \\<f\\> \\`g\\` \\\\', '\\# not a heading', '\\- not a list', '1\\. not a list'].join('\n\n'),
    );
  });

  it('lists, nested and ordered from their start, with several paragraphs in an item', () => {
    expect(md('<ul><li>one</li><li>two<ul><li>two.a</li><li>two.b</li></ul></li></ul><ol start="3"><li><p>three</p><p>more</p></li><li>four</li></ol>')).toBe(
      ['- one\n- two\n  - two.a\n  - two.b', '3. three\n   more\n4. four'].join('\n\n'),
    );
  });

  it('tables: the first row as header, columns padded, pipes escaped, spans kept as empty cells, a caption above', () => {
    expect(md('<table><caption>Properties</caption><thead><tr><th>Property</th><th>Value</th></tr></thead><tbody><tr><td>Molar mass</td><td>180.16 g/mol</td></tr><tr><td colspan="2">a|b<br>c</td></tr></tbody></table>')).toBe(
      ['Properties', '| Property   | Value        |\n| ---------- | ------------ |\n| Molar mass | 180.16 g/mol |\n| a\\|b c     |              |'].join('\n\n'),
    );
  });

  it('code blocks as fences, quotes prefixed, scripts and styles left out', () => {
    expect(md('<pre><code>x = 1\n  y = 2\n</code></pre><blockquote><p>quoted</p><p>twice</p></blockquote><script>alert(1)</script><style>p{}</style><p>end</p>')).toBe(
      ['```\nx = 1\n  y = 2\n```', '> quoted\n>\n> twice', 'end'].join('\n\n'),
    );
  });

  it('Chinese text as it is', () => {
    expect(md('<p>阿司匹林是一种<strong>解热镇痛药</strong>。</p>')).toBe('阿司匹林是一种**解热镇痛药**。');
  });
});
