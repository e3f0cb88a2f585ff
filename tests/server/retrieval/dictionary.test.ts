import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hybridSearch } from '../../../src/server/retrieval/fusion';
import { ABSTAIN_BELOW } from '../../../src/server/retrieval/rerank';
import { dictionaryTermsIn } from '../../../src/server/text/dictionary';
import { queryTerms, segmentForIndex, translatedQuery, translationsOf } from '../../../src/server/text/segment';
import { indexedDatabase } from './indexed-documents';

// A Chinese question over an English page that shares none of its words: the dictionary
// (CC-CEDICT, text/dictionary.ts) gives the question's words English ones.

describe('the dictionary', () => {
  it('reads the longest word first and gives the English words of its usual senses', () => {
    const found = new Map(dictionaryTermsIn('捷克语和斯洛伐克语的排版').map((d) => [d.term, d.alternatives]));
    expect(found.get('捷克语')).toContain('czech');
    expect(found.get('斯洛伐克语')).toContain('slovak');
    // 捷克 is read as part of 捷克语, not on its own.
    expect(found.has('捷克')).toBe(false);
    expect(new Map(dictionaryTermsIn('尾注').map((d) => [d.term, d.alternatives])).get('尾注')).toEqual(['endnote']);
  });

  it('keeps no classifier, variant or bracketed note, and passes over the words it is told to', () => {
    const table = dictionaryTermsIn('表格').find((d) => d.term === '表格')!.alternatives;
    expect(table).toEqual(expect.arrayContaining(['form', 'table']));
    expect(table.every((w) => /^[a-z]{3,}$/.test(w))).toBe(true);
    expect(dictionaryTermsIn('表格', (w) => w === '表格')).toEqual([]);
  });

  it('translates only Chinese questions, and only words the lexicon has no entry for', () => {
    expect(translationsOf('How do I typeset endnotes?').size).toBe(0);
    expect(translatedQuery('How do I typeset endnotes?')).toBe('');
    const translated = translationsOf('论文里想把注释放到文章末尾做成尾注，而不是脚注');
    expect(translated.get('尾注')).toEqual(['endnot']);
    // 脚注 is in the lexicon (footnote), so the dictionary leaves it alone.
    expect(translated.has('脚注')).toBe(false);
    // The question's own Latin-script words go with its English words.
    expect(translatedQuery('TeX Live 里捷克语的集合').split(' ')).toEqual(expect.arrayContaining(['TeX', 'Live', 'czech']));
  });
});

describe('a Chinese question over an English page', () => {
  let index: Awaited<ReturnType<typeof indexedDatabase>> | undefined;
  // An English list of collections; the other pages of the guide are Chinese and talk about
  // installing and updating TeX Live.
  const list = {
    page: 19,
    text: 'collection-langcyrillic Cyrillic\ncollection-langczechslovak Czech/Slovak\ncollection-langeuropean Other European languages\ncollection-langfrench French\ncollection-langgerman German',
  };
  const chinese = Array.from({ length: 20 }, (_, i) => ({ page: 1 + i, text: `第 ${i + 1} 节：用 tlmgr 安装和更新 TeX Live 的宏包，设置镜像，查看已经装好的宏包。` }));
  const question = '捷克语的排版支持在 TeX Live 里要装什么';

  beforeAll(async () => {
    index = await indexedDatabase('dictionary', { guide: [...chinese, list] });
  }, 60_000);
  afterAll(() => index?.close());

  it('shares no word with the question: only the dictionary can find it', () => {
    const words = new Set(segmentForIndex(list.text).split(' '));
    expect(queryTerms(question, { expand: true }).map((t) => t.slice(1, -1)).filter((t) => words.has(t))).toEqual([]);
  });

  it('is among the five best passages, though the dictionary alone is no evidence that it answers', async () => {
    const ranked = await hybridSearch(index!.db, ['guide'], question, 8);
    const page = ranked.slice(0, 5).find((p) => p.page === list.page);
    expect(page, JSON.stringify(ranked.map((p) => p.page))).toBeDefined();
    // A word's usual English senses rank a passage; whether it answers at all is judged on the
    // question's own words and the lexicon's (the hard set's "复旦大学研究生院的办公地址" stays abstained on).
    expect(page!.coverage).toBeLessThan(ABSTAIN_BELOW);
  });
});
