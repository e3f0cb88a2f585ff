/** Text helpers of the web search adapters: site names, plain snippets, citable links. */

/** The site's name of a URL: its host without "www.". */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./i, '');
  } catch {
    return '';
  }
}

/** Plain text of a snippet some services send with HTML marks (<b>, &amp;), spaces collapsed. */
export function plainText(text: string, max = 500): string {
  const plain = text
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...plain];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : plain;
}

/** Whether a URL is one a citation may link to (http or https). */
export const isHttpUrl = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};
