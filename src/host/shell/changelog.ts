/** One release of CHANGELOG.md. */
export interface Release {
  version: string;
  /** What follows the version in its heading, e.g. `unreleased` or `2026-01-20`. */
  note: string;
  items: string[];
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
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^##\s+v?([\d.]+)\s*(?:[—–-]\s*(.*))?$/.exec(line.trim());
    if (heading) {
      current = { version: heading[1]!, note: (heading[2] ?? '').trim(), items: [] };
      releases.push(current);
      continue;
    }
    const item = /^[-*]\s+(.*)$/.exec(line.trim());
    if (item && current) current.items.push(item[1]!);
    else if (current && line.startsWith('  ') && line.trim() && current.items.length) {
      current.items[current.items.length - 1] += ` ${line.trim()}`;
    }
  }
  return releases.sort((a, b) => compareVersions(a.version, b.version));
}
