import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/server/db/database';
import { hybridSearch } from '../../../src/server/retrieval/fusion';
import { asksForOutline } from '../../../src/server/retrieval/outline';
import { citedPassages, nothingRelevant } from '../../../src/server/retrieval/rerank';
import { search } from '../../../src/server/retrieval/search';
import { copyPassages } from '../../../src/server/parsing/index-store';
import { addIndexedDocument, indexedDatabase } from './indexed-documents';

// A question about a document's outline ("the 帮助文档 part: which questions, numbered from what to
// what") is answered by its table of contents, which the index leaves out (parsing/navigation.ts):
// it is kept in kb_outline and searched for such questions only (retrieval/outline.ts).

const leaders = '. . . . . . . . . . . . . . . . . . . .';
const contents = [
  { page: 2, kind: 'toc' as const, text: `A 安装升级 5\n1 哪里可以下载中文套装软件？${leaders} 5\n2 如何升级现有的发行版？${leaders} 5\n3 新下载的宏包该如何安装？${leaders} 6\nB 文档排版 7\n4 如何设置双倍行距？${leaders} 7\n5 如何生成分栏的文档？${leaders} 7` },
  { page: 3, kind: 'toc' as const, text: `C 帮助文档 9\n18 能否推荐一些比较好的中文资料？${leaders} 9\n19 能否推荐一些比较好的英文资料？${leaders} 9\n20 我的问题没找到答案怎么办？${leaders} 10` },
];
const backIndex = { page: 11, kind: 'index' as const, text: 'doublespacing, 7\nmulticol, 7\nsetspace, 7\ntexmf, 6\ntwocolumn, 7\nThe LaTeX Companion, 9' };
const intro = { page: 1, text: '常见问题集\n这份常见问题集一共收录了 20 个问题，分为安装升级、文档排版和帮助文档三个部分。每个问题的编号在全文中连续，问题的解答都经过测试。' };
const body = [
  { page: 5, text: 'A 安装升级\n1 哪里可以下载中文套装软件？\n可以到网站的下载页面获取最新的套装软件，安装时按提示选择组件。\n2 如何升级现有的发行版？\n运行发行版自带的更新程序即可。' },
  { page: 6, text: '3 新下载的宏包该如何安装？\n把宏包文件放到本地的 texmf 目录，再刷新文件名数据库。' },
  { page: 7, text: 'B 文档排版\n4 如何设置双倍行距？\n使用 setspace 宏包的 \\doublespacing 命令。\n5 如何生成分栏的文档？\n使用 twocolumn 选项或 multicol 宏包。' },
  { page: 9, text: 'C 帮助文档\n18 能否推荐一些比较好的中文资料？\n入门可以读一份不太短的 LaTeX 介绍。\n19 能否推荐一些比较好的英文资料？\n可以读 The LaTeX Companion 一书。' },
  { page: 10, text: '20 我的问题没找到答案怎么办？\n到论坛上提问，说清楚所用的发行版和出错信息，问题的编号会在下一版加入这份文档。' },
];

let db: Db;
let index: Awaited<ReturnType<typeof indexedDatabase>> | undefined;

beforeAll(async () => {
  index = await indexedDatabase('outline', { faq: [intro, ...contents, ...body, backIndex] });
  db = index.db;
}, 60_000);

afterAll(() => index?.close());

describe('questions about a document’s outline', () => {
  it('tells a question about what a part holds or where it starts from other questions', () => {
    for (const q of ['这份常见问题集的“帮助文档”部分包括哪些问题，编号是从几到几？', '附录一共有几个，分别讲什么', '讲 restore 和 backup 的小节分别从第几页开始', 'Which sections does the appendix have?', '索引和贡献者名单分别在第几页', '在 Windows 上卸载，这份指南一共介绍了哪几种办法', 'Ubuntu 一章里“安装 TeX Live”一节下面讨论了哪两种特殊情况'])
      expect(asksForOutline(q), q).toBe(true);
    for (const q of ['能否推荐一些比较好的中文资料？', '如何设置双倍行距', '这一节讲的 setspace 宏包怎么用'])
      expect(asksForOutline(q), q).toBe(false);
  });

  it('answers from the table of contents, which the full-text index does not hold', async () => {
    const question = '这份常见问题集的“帮助文档”部分包括哪些问题，编号是从几到几？';
    // The contents pages are in no BM25 list, whatever is asked.
    expect((await search(db, ['faq'], question, 100, { expand: true })).map((p) => p.page)).not.toContain(3);
    expect((await search(db, ['faq'], '中文资料 英文资料 答案', 100)).map((p) => p.page)).not.toContain(3);

    const ranked = await hybridSearch(db, ['faq'], question, 8);
    expect(ranked[0]?.page).toBe(3);
    expect(nothingRelevant(ranked)).toBe(false);
    // The answer cites it: found for an outline question, it is not dropped as navigation.
    expect(citedPassages(ranked).map((p) => p.page)).toContain(3);
  });

  it('leaves the contents out of an ordinary question’s answer', async () => {
    const ranked = await hybridSearch(db, ['faq'], '能否推荐一些比较好的中文资料？', 8);
    expect(ranked[0]?.page).toBe(9);
    expect(ranked.map((p) => p.page)).not.toContain(3);
    expect(ranked.map((p) => p.page)).not.toContain(2);
  });

  it('answers a question about the back-of-book index from the index, and no other question', async () => {
    const question = '这份常见问题集的书后索引里，multicol 和 texmf 分别指向第几页？';
    const ranked = await hybridSearch(db, ['faq'], question, 8);
    expect(ranked[0]?.page).toBe(11);
    expect(citedPassages(ranked).map((p) => p.page)).toContain(11);
    // Asked without naming the index, the same pages are the outline's or the body's, never the index's.
    expect((await hybridSearch(db, ['faq'], 'multicol 和 texmf 分别在第几页讲到？', 8)).map((p) => p.page)).not.toContain(11);
    expect((await hybridSearch(db, ['faq'], '这份常见问题集的“帮助文档”部分包括哪些问题，编号是从几到几？', 8)).map((p) => p.page)).not.toContain(11);
    expect((await search(db, ['faq'], 'multicol texmf doublespacing', 100)).map((p) => p.page)).not.toContain(11);
  });

  it('copies the contents and the index with the document, each of its kind', async () => {
    const owner = await db.selectFrom('kb_documents').select('owner_id').where('id', '=', 'faq').executeTakeFirstOrThrow();
    await addIndexedDocument(db, owner.owner_id, 'faq-copy', []);
    await copyPassages(db, 'faq-copy', 'faq');
    expect((await hybridSearch(db, ['faq-copy'], '这份常见问题集的书后索引里，multicol 和 texmf 分别指向第几页？', 8))[0]?.page).toBe(11);
    expect((await hybridSearch(db, ['faq-copy'], '这份常见问题集的“帮助文档”部分包括哪些问题，编号是从几到几？', 8))[0]?.page).toBe(3);
  });

  it('keeps a document’s contents to the readers of that document', async () => {
    expect(await hybridSearch(db, ['another'], '这份常见问题集的“帮助文档”部分包括哪些问题，编号是从几到几？', 8)).toEqual([]);
  });
});
