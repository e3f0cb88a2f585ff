/**
 * Parses an SVG string (from draw_svg, already sanitised on the server) without innerHTML and
 * returns the root <svg> element adopted into `doc`, with anything active removed once more
 * (scripts, foreignObject, event handler attributes, non-local links). `null` when it is not SVG.
 */
export function parseSvg(text: string, doc: Document = document): SVGSVGElement | null {
  const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = parsed.documentElement;
  if (svg.nodeName !== 'svg' || parsed.getElementsByTagName('parsererror').length > 0) return null;
  for (const bad of [...svg.querySelectorAll('script, foreignObject, iframe, object, embed, use, image, animate, set')]) bad.remove();
  for (const el of [svg, ...svg.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || ((name === 'href' || name === 'xlink:href') && !attr.value.startsWith('#'))) el.removeAttribute(attr.name);
    }
  }
  const adopted = doc.adoptNode(svg);
  return adopted instanceof SVGSVGElement ? adopted : null;
}
