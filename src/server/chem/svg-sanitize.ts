import { DOMParser, type Element as XmlElement, type Node as XmlNode } from '@xmldom/xmldom';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Drawing elements a depiction may contain; anything else is dropped with its content. */
const ELEMENTS = new Set(['svg', 'g', 'path', 'rect', 'ellipse', 'circle', 'line', 'polyline', 'polygon', 'text', 'tspan', 'title', 'desc']);
const TEXT_ELEMENTS = new Set(['text', 'tspan', 'title', 'desc']);

/** Geometry and presentation attributes; no event handlers, no href, no namespaced extras. */
const ATTRIBUTES = new Set([
  'class', 'd', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'width', 'height', 'viewBox', 'points',
  'transform', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap',
  'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'opacity', 'style', 'font-family', 'font-size',
  'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'version', 'baseProfile', 'preserveAspectRatio',
]);

const STYLE_PROPERTIES = new Set([
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap', 'stroke-linejoin',
  'stroke-miterlimit', 'stroke-dasharray', 'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor',
  'dominant-baseline',
]);

/** Colours, numbers, units, keywords, rgb()/rgba(): never url(), never escapes or quotes. */
const SAFE_VALUE = /^[#\w\s.,%+-]*(?:rgba?\([\d\s.,%]+\)[#\w\s.,%+-]*)?$/;
const PATH_DATA = /^[\sMmLlHhVvCcSsQqTtAaZz\d.,eE+-]*$/;

export class UnsafeSvgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeSvgError';
  }
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;').replace(/[\t\n\r]/g, ' ');

function cleanStyle(style: string): string {
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (STYLE_PROPERTIES.has(name) && SAFE_VALUE.test(value)) kept.push(`${name}:${value}`);
  }
  return kept.join(';');
}

function cleanAttribute(name: string, value: string): string | undefined {
  if (!ATTRIBUTES.has(name)) return undefined;
  if (name === 'style') {
    const style = cleanStyle(value);
    return style || undefined;
  }
  if (name === 'd') return PATH_DATA.test(value) ? value : undefined;
  if (name === 'class') return /^[\w\s-]*$/.test(value) ? value : undefined;
  return SAFE_VALUE.test(value) ? value : undefined;
}

function serialize(node: XmlElement, out: string[], root: boolean) {
  const name = node.localName ?? node.nodeName;
  if (node.namespaceURI !== SVG_NS || !name || !ELEMENTS.has(name)) return;
  out.push(`<${name}`);
  if (root) out.push(` xmlns="${SVG_NS}"`);
  for (let i = 0; i < node.attributes.length; i++) {
    const attr = node.attributes.item(i);
    if (!attr) continue;
    if (attr.name === 'xml:space') {
      out.push(` xml:space="${attr.value === 'preserve' ? 'preserve' : 'default'}"`);
      continue;
    }
    if (attr.prefix || attr.namespaceURI) continue;
    const value = cleanAttribute(attr.name, attr.value);
    if (value !== undefined) out.push(` ${attr.name}="${escapeAttr(value)}"`);
  }
  const children: string[] = [];
  for (let child: XmlNode | null = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === child.ELEMENT_NODE) serialize(child as XmlElement, children, false);
    else if ((child.nodeType === child.TEXT_NODE || child.nodeType === child.CDATA_SECTION_NODE) && TEXT_ELEMENTS.has(name)) {
      children.push(escapeText(child.nodeValue ?? ''));
    }
  }
  if (children.length === 0) out.push('/>');
  else out.push('>', ...children, `</${name}>`);
}

/**
 * Rebuilds an SVG from an allowlist so it is safe to inline in a page: drawing elements and
 * presentation attributes only (no script, foreignObject, image, use, style sheets, metadata,
 * event handlers, href or url() references), no XML declaration or comments. The result is
 * well-formed XML with the SVG namespace on its root. Throws UnsafeSvgError when the input is not
 * an SVG document.
 */
export function sanitizeSvg(svg: string): string {
  let fatal: string | undefined;
  let root: XmlElement | null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') fatal ??= message;
      },
    }).parseFromString(svg, 'image/svg+xml');
    root = doc.documentElement;
  } catch (err) {
    // xmldom throws its ParseError on fatal errors after reporting them.
    throw new UnsafeSvgError(err instanceof Error ? err.message : 'not well-formed XML');
  }
  if (fatal || !root || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) {
    throw new UnsafeSvgError(fatal ?? 'not an SVG document');
  }
  const out: string[] = [];
  serialize(root, out, true);
  return out.join('');
}
