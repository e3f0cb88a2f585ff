// Generates, at build time, the twind rules of every class name written in the elements' sources
// (src/widgets), so an element's first render adopts them ready-made instead of having twind
// compile each class in the browser (tens of milliseconds on a page's critical path). Classes the
// scan cannot see (built at run time, e.g. `w-[${n}%]`) are still compiled in the browser.
import fs from 'node:fs';
import path from 'node:path';
import { twind, virtual } from '@twind/core';
import { twindConfig } from '../src/widgets/shared/twind-config';

/** What the browser receives (src/widgets/shared/styles.ts): the rules and every token they cover. */
export interface WidgetCss {
  css: string;
  /**
   * Space-separated: the tokens the browser need not compile: each class that made a rule, and the
   * kebab-case words that made none (plain class names such as `csai-root`, kept as hooks).
   */
  classes: string;
}

const TOKEN = /^[!-]?[a-z0-9][\w:.\-/%#[\]]*$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    // Strings files hold translations, not class names.
    return /\.tsx?$/.test(e.name) && !/\.strings(\.\w+)?\.ts$/.test(e.name) ? [full] : [];
  });
}

/** Tokens of every string literal (template parts between `${…}` included) in `files`. */
export function classTokens(files: string[]): string[] {
  const tokens = new Set<string>();
  const literal = /'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"|`((?:\\.|[^`\\])*)`/g;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(literal)) {
      const body = (m[1] ?? m[2] ?? m[3] ?? '').replace(/\$\{[^}]*\}/g, ' ');
      for (const token of body.split(/\s+/)) if (token.length < 80 && TOKEN.test(token)) tokens.add(token);
    }
  }
  return [...tokens].sort();
}

/**
 * Runs `work` without twind's reports of tokens it has no rule for (a console line in a browser, a
 * process warning in Node): most tokens given here are not class names at all.
 */
export function withoutTwindWarnings<T>(work: () => T): T {
  const { warn } = console;
  const { emitWarning } = process;
  console.warn = () => {};
  process.emitWarning = () => {};
  try {
    return work();
  } finally {
    console.warn = warn;
    process.emitWarning = emitWarning;
  }
}

/** The rules of every class token in the elements' sources under `root`. */
export function widgetCss(root: string): WidgetCss {
  const tokens = classTokens(sourceFiles(path.join(root, 'src/widgets')));
  const sheet = virtual();
  const tw = twind(twindConfig(), sheet);
  const covered: string[] = [];
  withoutTwindWarnings(() => {
    tw('block'); // the preflight, written with the first class
    for (const token of tokens) {
      const before = sheet.target.length;
      tw(token);
      if (sheet.target.length > before || token === 'block' || /^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(token)) covered.push(token);
    }
  });
  return { css: sheet.target.join('\n'), classes: covered.join(' ') };
}
