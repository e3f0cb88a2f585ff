import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChangelog } from '../../src/host/shell/changelog';
import { wrongLanguage } from '../widgets/untranslated';

// The version history dialog shows CHANGELOG.md's notes for users; the e2e language scan reads them
// there, minutes into its run. The same rule here, per line, fails in a second with the line named.
// `code` spans are rendered as <code> (data in either language), so they are left out as the scan does.
const releases = parseChangelog(fs.readFileSync(path.resolve(__dirname, '../../CHANGELOG.md'), 'utf8'));
const shown = (line: string) => line.replace(/`[^`]*`/g, ' ');

describe('CHANGELOG.md notes for users', () => {
  it('has releases with notes in both languages', () => {
    expect(releases.length).toBeGreaterThan(0);
    expect(releases[0]!.notes.zh.length).toBeGreaterThan(0);
    expect(releases[0]!.notes.en.length).toBeGreaterThan(0);
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`in ${lang} have no interface words of the other language`, () => {
      const offending = releases.flatMap((r) => r.notes[lang].map((line) => ({ line, words: wrongLanguage([shown(line)], lang) })).filter((f) => f.words.length));
      expect(offending).toEqual([]);
    });
  }

  it('the rule catches an English key name written as prose in a Chinese note', () => {
    expect(wrongLanguage([shown('提问框：按 Shift+Enter 换行后继续输入')], 'zh')).toContain('Shift+Enter');
    expect(wrongLanguage([shown('提问框：换行（Shift+Enter）后继续输入')], 'zh')).toEqual([]);
  });
});
