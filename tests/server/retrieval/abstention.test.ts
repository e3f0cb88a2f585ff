import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/server/db/database';
import { hybridSearch } from '../../../src/server/retrieval/fusion';
import { ABSTAIN_BELOW, nothingRelevant } from '../../../src/server/retrieval/rerank';
import { indexedDatabase } from './indexed-documents';

// The answer's abstention over a real SQLite index (rerank.ts NAMED_COVERAGE, UNHELD_BIGRAM): a
// Chinese question asked in many everyday words covers little of the page that answers it, around the
// command it names or with no name at all, and is still answered from that page; a name alone, in a
// passage sharing nothing else with the question, is no answer, nor is a page sharing only the
// question's everyday words.

let db: Db;

// A manual's chapter on fonts: the answering page names \fontsize, a few others name it too, most
// pages talk about fonts and sizes without it.
const answering = {
  page: 75,
  text: '\\fontsize 用到两个参数：⟨size⟩ 为字号，⟨base line-skip⟩ 为行距。如果不在导言区，\\fontsize 的设定要靠 \\selectfont 才能生效。',
};
const pages = [
  { page: 73, text: '字号命令实际大小依赖于所使用的文档类及其选项。表中列出了这些命令在标准文档类中的绝对大小，单位为 pt。' },
  { page: 79, text: '前文中我们提到过 \\fontsize 命令可以为字号设定对应的行距，但我们很少那么用。更常用的办法是在导言区使用 \\linespread 命令。' },
  { page: 80, text: 'LaTeX 默认将单词之间的空格转化为水平间距。如果需要在文中手动插入额外的水平间距，可使用 \\hspace 命令。' },
  ...Array.from({ length: 30 }, (_, i) => ({ page: 100 + i, text: `第 ${i + 1} 节 正文字体的选择、字体族与字体形状，以及中文字体的设置方法和变化。` })),
];
// Molecule records: one names a target and nothing of what the question asks about it; the others
// share one ordinary word with the question (so the name is held by few of the candidates).
const record = { page: 1, text: '分子 3：ZINC03814457\nSMILES: CC(C)n1cnc2c(NCc3ccccc3)nc(NCCO)nc21\ntarget: cdk2\nenergy: -81.2' };
const others = Array.from({ length: 6 }, (_, i) => ({ page: 1, text: `分子 ${10 + i}：ZINC0381450${i}\nSMILES: c1ccc(cc1)C(=O)N${'C'.repeat(i + 1)}\nnote: 通常保存于 -20 ℃` }));

// A manual's appendix of table packages, and pages on tables that do not name the one asked for.
const packages = { page: 123, text: 'B.3.3 表格宏包\narray 宏包：对表格列格式的扩展。\nbooktabs 宏包：排版三线表。\ndiagbox 宏包：排版斜线表头，行列标题用斜线分隔。\nmultirow 宏包：支持合并多行单元格。' };
const tablePages = Array.from({ length: 12 }, (_, i) => ({ page: 30 + i, text: `3.${i + 1} 表格 排版表格最基本的 tabular 环境，列格式、行与列的标题和表格线的画法，第 ${i + 1} 部分。` }));

// A manual's section on floats: the answering page says how \clearpage flushes deferred floats in
// its own terms (浮动体, 推迟, 另起一页), other pages talk about figures and tables in general.
const flushing = { page: 47, text: '浮动体的位置选取受到先后顺序的限制。如果某个浮动体由于参数限制、空间限制等原因在当前页无法放置，就要推迟到之后处理，并使得之后的同类浮动体一并推迟。\\clearpage 命令会在另起一页之前，先将所有推迟处理的浮动体排版成页。' };
const floatPages = Array.from({ length: 12 }, (_, i) => ({ page: 40 + i, text: `3.${i + 1} 插图与表格 用 figure 和 table 环境插入图片和表格，设置标题、标签与交叉引用，第 ${i + 1} 部分。` }));

// An installation guide: Ubuntu named all through its chapter on installing, not on the page that
// says where the editor is told the commands' path, nor on the editor's other pages.
const pathPage = { page: 40, text: '在 TeXstudio 中设置命令路径：打开“选项—设置 TeXstudio—命令”，在 PATH 中添加 /usr/local/texlive/2022/bin/x86_64-linux，之后就能找到 TeX Live 的编译命令。' };
const ubuntuPages = Array.from({ length: 30 }, (_, i) => ({ page: 60 + i, text: `Ubuntu 系统第 ${i + 1} 步：用 apt 安装软件包，设置镜像源。` }));
const editorPages = Array.from({ length: 25 }, (_, i) => ({ page: 10 + i, text: `TeXstudio 编辑器第 ${i + 1} 部分：双击打开 tex 文件，编译并预览，查找文字。` }));

let index: Awaited<ReturnType<typeof indexedDatabase>> | undefined;

beforeAll(async () => {
  index = await indexedDatabase('abstention', { manual: [answering, ...pages], records: [record, ...others], appendix: [packages, ...tablePages], floats: [flushing, ...floatPages], guide: [pathPage, ...ubuntuPages, ...editorPages] });
  db = index.db;
}, 60_000);

afterAll(() => index?.close());

describe('abstention on a Chinese question that names a command', () => {
  it('answers from the page holding the command although the question’s everyday words cover little of it', async () => {
    const ranked = await hybridSearch(db, ['manual'], '在正文中间用 \\fontsize 设了新字号却没有立刻变化，还要加什么命令', 8);
    const page = ranked.find((p) => p.page === answering.page);
    expect(ranked.slice(0, 5).map((p) => p.page)).toContain(answering.page);
    // Its own coverage is below the abstention threshold; holding the name lifts it to it.
    expect(page?.coverage).toBe(ABSTAIN_BELOW);
    expect(nothingRelevant(ranked)).toBe(false);
  });

  it('abstains when no page holds the command named, however many of the question’s words they share', async () => {
    const ranked = await hybridSearch(db, ['manual'], '在正文中间用 \\fontspec 设了新字体却没有立刻变化，还要加什么命令', 8);
    expect(nothingRelevant(ranked)).toBe(true);
  });

  it('abstains when the only passage holding the name shares nothing else with the question', async () => {
    const ranked = await hybridSearch(db, ['manual', 'records'], 'CDK2 抑制剂通常和铰链区的哪个氨基酸残基形成氢键', 8);
    expect(ranked.map((p) => p.docId)).toContain('records');
    expect(nothingRelevant(ranked)).toBe(true);
  });
});

describe('abstention on a Chinese question asked wholly in everyday words', () => {
  it('answers from the page that names what is asked for, though the question’s pairs of characters across its words are held by no page', async () => {
    const ranked = await hybridSearch(db, ['appendix'], '表格左上角那种画一条斜线、把行标题和列标题分开写的表头，用什么宏包来做', 8);
    expect(ranked.slice(0, 5).map((p) => p.page)).toContain(packages.page);
    expect(nothingRelevant(ranked)).toBe(false);
  });

  it('still abstains when the pages share only the question’s everyday words', async () => {
    const ranked = await hybridSearch(db, ['appendix'], '表格左上角那种画一条波浪线、把行标题和列标题分开写的表头，用什么软件来做', 8);
    expect(nothingRelevant(ranked)).toBe(true);
  });
});

describe('abstention on a long question in everyday words', () => {
  // Thirty-odd characters of everyday wording ("放不下", "往后推", "换页") of which the answering page
  // says few: it covers a small share of so long a question, and a long question is believed more
  // of its coverage (rerank.ts LONG_ALLOWANCE).
  it('answers from the page that says what is asked in its own terms', async () => {
    const ranked = await hybridSearch(db, ['floats'], '前面好几张图表因为放不下一直被往后推，怎样让它们在换页之前全部排出来', 8);
    expect(ranked.slice(0, 5).map((p) => p.page)).toContain(flushing.page);
    expect(nothingRelevant(ranked)).toBe(false);
  });

  it('still abstains on a short question those pages share only a word or two with', async () => {
    const ranked = await hybridSearch(db, ['floats'], '图片怎样压缩得更小一些', 8);
    expect(nothingRelevant(ranked)).toBe(true);
  });
});

describe('abstention on a question naming what its documents mention elsewhere', () => {
  // Ubuntu is on thirty pages, none of which shares the question's other words: BM25 ranks them
  // below the second stage's candidates, which still does not make Ubuntu a name the guide lacks.
  it('answers from the page that says where the path is set', async () => {
    const question = '在 Ubuntu 上双击 tex 文件用 TeXstudio 打开后，编译时找不到 TeX Live 的命令，要在哪里添加路径';
    const ranked = await hybridSearch(db, ['guide'], question, 8);
    expect(ranked.map((p) => p.text)).not.toContain(ubuntuPages[0]!.text);
    expect(ranked[0]!.page).toBe(pathPage.page);
    expect(nothingRelevant(ranked)).toBe(false);
  });

  it('still abstains on a name no page of the guide holds', async () => {
    const ranked = await hybridSearch(db, ['guide'], '在 Fedora 上双击 tex 文件用 TeXstudio 打开后，编译时找不到 TeX Live 的命令，要在哪里添加路径', 8);
    expect(nothingRelevant(ranked)).toBe(true);
  });
});
