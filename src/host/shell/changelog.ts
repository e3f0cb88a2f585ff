/** One release of CHANGELOG.md. */
export interface Release {
  version: string;
  /** What follows the version in its heading, e.g. `unreleased` or `2026-01-20`. */
  note: string;
  /** Every item of the release (for a release without notes for users, what the dialog shows). */
  items: string[];
  /** Release notes for users: `### 更新说明` (zh) and `### Release notes` (en). */
  notes: { zh: string[]; en: string[] };
}

/** The subsection headings of a release whose items are notes for users, by language. */
const NOTE_HEADINGS: Record<string, 'zh' | 'en'> = { 更新说明: 'zh', 'release notes': 'en' };

/** What the version history shows of a release in a language: its notes for users, else all its items. */
export function releaseLines(release: Release, language: string): string[] {
  const lang = language.startsWith('en') ? 'en' : 'zh';
  const notes = release.notes[lang].length ? release.notes[lang] : release.notes[lang === 'en' ? 'zh' : 'en'];
  return notes.length ? notes : release.items;
}

const compareVersions = (a: string, b: string) => {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (d) return d;
  }
  return 0;
};

/** Reads `## <version> — <note>` sections and their `- ` items, newest version first. */
export function parseChangelog(markdown: string): Release[] {
  const releases: Release[] = [];
  let current: Release | undefined;
  let list: string[] | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^##\s+v?([\d.]+)\s*(?:[—–-]\s*(.*))?$/.exec(line.trim());
    if (heading) {
      current = { version: heading[1]!, note: (heading[2] ?? '').trim(), items: [], notes: { zh: [], en: [] } };
      list = current.items;
      releases.push(current);
      continue;
    }
    const sub = /^###\s+(.*)$/.exec(line.trim());
    if (sub && current) {
      const lang = NOTE_HEADINGS[sub[1]!.trim().toLowerCase()];
      list = lang ? current.notes[lang] : current.items;
      continue;
    }
    const item = /^[-*]\s+(.*)$/.exec(line.trim());
    if (item && list) list.push(item[1]!);
    else if (list && line.startsWith('  ') && line.trim() && list.length) {
      list[list.length - 1] += ` ${line.trim()}`;
    }
  }
  return releases.sort((a, b) => compareVersions(a.version, b.version));
}
