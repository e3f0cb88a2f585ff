/** The attribute inline styles are parked in while parsing (see {@link parseSvg}). */
const PARKED = 'data-csai-style';

/**
 * Parses an SVG string (from draw_svg, already sanitised on the server) without innerHTML and
 * returns the root <svg> element adopted into `doc`, with anything active removed once more
 * (scripts, foreignObject, event handler attributes, non-local links). `null` when it is not SVG.
 * RDKit writes its colours as `style` attributes, which a page CSP without 'unsafe-inline'
 * refuses: they are parked under another name before parsing and applied through CSSOM.
 */
export function parseSvg(text: string, doc: Document = document): SVGSVGElement | null {
  const parked = text.replace(/(<[^<>]*\s)style(\s*=)/g, `$1${PARKED}$2`);
  const parsed = new DOMParser().parseFromString(parked, 'image/svg+xml');
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
  for (const el of [adopted, ...adopted.querySelectorAll(`[${PARKED}]`)]) {
    const css = el.getAttribute(PARKED);
    if (css === null) continue;
    el.removeAttribute(PARKED);
    if (el instanceof SVGElement) el.style.cssText = css;
  }
  return adopted instanceof SVGSVGElement ? adopted : null;
}
