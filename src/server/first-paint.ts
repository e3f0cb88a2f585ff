// Home's server-rendered first paint (src/host/first-paint.tsx, built into the site as
// first-paint.json): a signed-in `/` gets index.html with a static copy of home's first frame
// beside the empty #root, so its question box shows and takes typing before the page's scripts
// run. The copy's one style element is allowed by its hash in the page's CSP.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { FIRST_PAINT_FILE, firstPaintKey, LANGUAGE_COOKIE, QUESTION_SLOT, SIDEBAR_COOKIE, type FirstPaintFile } from '../contract/first-paint';

/** The copy's container, right after the (empty) element React renders into. */
const ROOT = '<div id="root"></div>';
/**
 * The most of `q` put back into the box. The form sends with GET (it only puts text back, so a
 * link cannot make anyone ask), and an address longer than the server's header limit (16 KB) is
 * refused with 431 before it gets here.
 */
const MAX_QUESTION = 4000;

/** The file as the build writes it (scripts/vite-first-paint.ts): anything else leaves the page as built. */
export const firstPaintFile: z.ZodType<FirstPaintFile> = z.record(z.string(), z.object({ html: z.string().includes('<template shadowrootmode="open">'), style: z.string() }));

interface Variant {
  html: string;
  /** The CSP source allowing its style element. */
  styleHash: string;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The first paints of the site in `webDir` (none when the build wrote none: the page is then sent
 * as built). The file is read again when a build replaces it.
 */
export function firstPaints(webDir: string) {
  const file = path.join(webDir, FIRST_PAINT_FILE);
  let loaded: { stamp: string; variants: Map<string, Variant> } | undefined;
  const variants = (): Map<string, Variant> | undefined => {
    try {
      const stat = fs.statSync(file);
      const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      if (loaded?.stamp !== stamp) {
        const parsed = firstPaintFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
        const map = new Map<string, Variant>();
        for (const [key, { html, style }] of Object.entries(parsed)) {
          map.set(key, { html, styleHash: `'sha256-${createHash('sha256').update(style).digest('base64')}'` });
        }
        loaded = { stamp, variants: map };
      }
      return loaded.variants;
    } catch {
      return undefined; // no first paint built (or a build is replacing it): the plain page
    }
  };
  return {
    /**
     * index.html with the first paint for these cookies inserted, and the style hash its CSP must
     * allow; undefined when there is none to insert. `question`: the form's `q`, put back into the box.
     */
    page(index: Buffer, cookies: Record<string, string | undefined>, question: string | undefined): { body: string; styleHash: string } | undefined {
      // The cookies choose the variant: the language the site shows, the sidebar's saved state.
      const variant = variants()?.get(firstPaintKey(cookies[LANGUAGE_COOKIE] === 'en' ? 'en' : 'zh', cookies[SIDEBAR_COOKIE] !== 'false'));
      const text = index.toString('utf8');
      if (!variant || !text.includes(ROOT)) return undefined;
      // Function replacements: a `$&` in the question is text, not a pattern.
      const html = variant.html.replace(QUESTION_SLOT, () => escapeText((question ?? '').slice(0, MAX_QUESTION)));
      return { body: text.replace(ROOT, () => `${ROOT}${html}`), styleHash: variant.styleHash };
    },
  };
}
