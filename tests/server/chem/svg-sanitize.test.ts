import { describe, expect, it } from 'vitest';
import { sanitizeSvg, UnsafeSvgError } from '../../../src/server/chem/svg-sanitize';
import { inspectSvg } from './svg-check';

const wrap = (inner: string, rootAttrs = '') =>
  `<?xml version='1.0' encoding='iso-8859-1'?>\n<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' xmlns:rdkit='http://www.rdkit.org/xml' width='100px' height='80px' viewBox='0 0 100 80'${rootAttrs}>\n<!-- END OF HEADER -->\n${inner}</svg>`;

describe('sanitizeSvg', () => {
  it('keeps drawing elements and their geometry', () => {
    const out = sanitizeSvg(wrap(`<path class='bond-0 atom-0 atom-1' d='M 1,2 L 3,4' style='fill:none;stroke:#FF0000;stroke-width:2.0px' />`));
    expect(out).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100px" height="80px" viewBox="0 0 100 80"><path class="bond-0 atom-0 atom-1" d="M 1,2 L 3,4" style="fill:none;stroke:#FF0000;stroke-width:2.0px"/></svg>',
    );
    expect(inspectSvg(out).bonds).toEqual(new Set([0]));
  });

  it('drops scripts, foreign content, images, links, styles and metadata with their content', () => {
    const out = sanitizeSvg(
      wrap(`<script>alert(1)</script><foreignObject><div xmlns='http://www.w3.org/1999/xhtml'>x</div></foreignObject>
        <image href='https://evil.example/x.png'/><a href='javascript:alert(1)'><path d='M 0,0'/></a>
        <style>@import url(https://evil.example/x.css);</style><metadata><rdkit:mol/></metadata>
        <use xlink:href='#a'/><animate attributeName='href' to='javascript:alert(1)'/><set attributeName='onload' to='x'/>`),
    );
    expect(out).not.toMatch(/script|alert|foreignObject|div|image|evil|<a\b|style>|metadata|rdkit|<use|animate|<set/i);
    expect(() => inspectSvg(out)).not.toThrow();
  });

  it('drops event handlers, hrefs and namespaced attributes', () => {
    const out = sanitizeSvg(wrap(`<path d='M 0,0' onclick='alert(1)' onmouseover='x()' xlink:href='#x' href='https://e.example' rdkit:x='1'/>`, ` onload='alert(1)'`));
    expect(out).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="100px" height="80px" viewBox="0 0 100 80"><path d="M 0,0"/></svg>');
  });

  it('drops url() references and anything odd in styles and presentation attributes', () => {
    const out = sanitizeSvg(
      wrap(`<rect width='10' height='10' fill='url(https://evil.example/#g)' style='fill:url(#g);stroke:#000;behavior:url(x.htc);stroke-width:expression(alert(1))'/>`),
    );
    expect(out).toContain('<rect width="10" height="10" style="stroke:#000"/>');
    expect(out).not.toMatch(/url|expression|behavior|evil/);
  });

  it('refuses path data that is not path data', () => {
    expect(sanitizeSvg(wrap(`<path d='M 0,0 &quot;&gt;&lt;script&gt;'/>`))).toContain('<path/>');
  });

  it('escapes text so it stays text', () => {
    const out = sanitizeSvg(wrap(`<text x='1' y='2'>&lt;script&gt;alert(1)&lt;/script&gt; &amp; Cl</text>`));
    expect(out).toContain('<text x="1" y="2">&lt;script&gt;alert(1)&lt;/script&gt; &amp; Cl</text>');
    expect(() => inspectSvg(out)).not.toThrow();
  });

  it('refuses what is not an SVG document', () => {
    expect(() => sanitizeSvg('<html><body/></html>')).toThrow(UnsafeSvgError);
    expect(() => sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><path></svg>')).toThrow(UnsafeSvgError);
    expect(() => sanitizeSvg('not xml at all')).toThrow(UnsafeSvgError);
  });
});
