import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';

/** Parses an SVG strictly (any XML error throws) and reports what a reader of the drawing would check. */
export function inspectSvg(svg: string) {
  const doc = new DOMParser({
    onError: (level, message) => {
      throw new Error(`SVG is not well-formed XML (${level}): ${message}`);
    },
  }).parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.localName !== 'svg' || root.namespaceURI !== 'http://www.w3.org/2000/svg') throw new Error('root is not <svg>');
  const bonds = new Set<number>();
  const labels = new Set<number>();
  /** Labels drawn in a heteroatom colour (carbon and hydrogen labels are black). */
  const colouredLabels = new Set<number>();
  const elements: string[] = [];
  const attributes = new Set<string>();
  const walk = (el: XmlElement) => {
    elements.push(el.localName ?? el.nodeName);
    for (let i = 0; i < el.attributes.length; i++) attributes.add(el.attributes.item(i)!.name);
    const cls = el.getAttribute('class') ?? '';
    for (const m of cls.matchAll(/\bbond-(\d+)\b/g)) bonds.add(Number(m[1]));
    const label = /^atom-(\d+)$/.exec(cls.trim());
    if (label && el.localName === 'path') {
      labels.add(Number(label[1]));
      if ((el.getAttribute('fill') ?? '#000000').toUpperCase() !== '#000000') colouredLabels.add(Number(label[1]));
    }
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === c.ELEMENT_NODE) walk(c as XmlElement);
  };
  walk(root);
  return {
    width: root.getAttribute('width'),
    height: root.getAttribute('height'),
    bonds,
    labels,
    colouredLabels,
    elements: new Set(elements),
    attributes,
    count: (name: string) => elements.filter((e) => e === name).length,
  };
}
