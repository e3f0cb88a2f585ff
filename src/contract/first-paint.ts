// Home's server-rendered first paint (src/host/first-paint.tsx) as the build writes it and the
// server reads it (src/server/first-paint.ts): the file, its variants and the cookies that choose
// one, and the slot the server fills with the request's `q`. One place for what both sides must agree on.
// No zod here: the site's first load reads the cookie names (the server checks the file, first-paint.ts).

/** The file the build writes into the built site. */
export const FIRST_PAINT_FILE = 'first-paint.json';

/** Where the copy's text area takes the request's `q` (always replaced: a text area shows a comment as text). */
export const QUESTION_SLOT = '<!--csai-q-->';

/** The cookie naming the interface language the site shows (written by the site, a rendering hint only). */
export const LANGUAGE_COOKIE = 'csai_lang';

/** SPEC §2/§9: the cookie that keeps the sidebar's open state. */
export const SIDEBAR_COOKIE = 'sidebar:state';

/** The interface languages. */
export type InterfaceLanguage = 'zh' | 'en';

/** The key of one variant in the file. */
export const firstPaintKey = (language: InterfaceLanguage, sidebarOpen: boolean) => `${language}-${sidebarOpen ? 'open' : 'closed'}`;

/** One variant: its markup, and the text of the one style element it holds (allowed by its hash). */
export interface FirstPaint {
  html: string;
  style: string;
}

/** The file: each variant under its {@link firstPaintKey}. */
export type FirstPaintFile = Record<string, FirstPaint>;
