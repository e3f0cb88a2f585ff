import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/server/db/database';
import { hybridSearch, RERANK_DEPTH } from '../../../src/server/retrieval/fusion';
import { nothingRelevant } from '../../../src/server/retrieval/rerank';
import { search } from '../../../src/server/retrieval/search';
import { indexedDatabase } from './indexed-documents';

// hybridSearch without embeddings (BM25, then the second stage) over a real SQLite index: a
// passage holding the one name a question asks about reaches the top although BM25, counting the
// question's many ordinary words, ranks it below the second stage's depth.

let db: Db;


// An installation guide: a troubleshooting chapter of many passages on compiling, errors and
// commands (the question's ordinary words, several in each), among many pages on other things.
const wordings = [
  '运行命令时出现错误，可以查看日志，再设法解决。',
  '编译文档报错时，执行 command 并检查 error 输出。',
  '相关命令的运行环境与常见错误提示。',
  '应该运行哪个命令来编译，编译出现错误又该怎样解决。',
];
const chapter = Array.from({ length: 40 }, (_, i) => ({ page: 1 + i, text: `第 ${i + 1} 节 ${wordings[i % wordings.length]}本节其余部分介绍日志文件的位置、格式和保存期限。` }));
const otherPages = Array.from({ length: 300 }, (_, i) => ({ page: 100 + i, text: `第 ${i + 1} 页 字体、版式与页面尺寸的设置，页眉页脚与目录的样式。` }));
const named = { page: 60, text: '编译出现 l3backend-* 问题\n这是 fmt 文件未能更新所导致的. 可以用 fmtutil-sys --all 刷新 fmt 文件后再编译.' };
const question = '编译时报 l3backend 相关的错误，应该运行什么命令来解决';
// Two names each held by one unrelated passage, and two held together by one.
const apart = [
  { page: 70, text: 'pythontex 宏包可在文档中运行代码。' },
  { page: 71, text: '表格可由 csvsimple 从数据文件读入。' },
];
const together = { page: 72, text: 'minted 与 pygments 配合排版代码，编译时须加 -shell-escape。' };

// A LaTeX manual: many pages on sets, elements, formulas and the commands that input them (the
// question's ordinary words), and one symbol table whose glyphs the PDF's text holds as private
// codes ("3" for ∋, "{" for ∁) beside their commands.
const mathWordings = [
  '集合的记号在数学模式中排版，公式里的符号用命令输入。',
  '公式的编号由 equation 环境给出，表示引用用 \\ref 命令。',
  '有些符号可以直接从键盘输入，其余的在公式里用命令。',
  '元素较多的矩阵用 matrix 环境，集合用花括号表示。',
  '定义新命令用 \\newcommand，公式里的命令可以缩写。',
  '集合论的一些符号需要加载宏包，再用命令输入。',
];
const mathPages = Array.from({ length: 60 }, (_, i) => ({ page: 1 + i, text: `4.${i + 1} 节 ${mathWordings[i % mathWordings.length]}${'本节其余部分讲公式的编号与对齐。'.repeat(1 + (i % 7))}` }));
const symbolTable = { page: 67, text: '表 4.6：二元关系符\n< < > > = = ≤ \\leq ≥ \\geq ∈ \\in 3 \\ni, \\owns ∝ \\propto ⊂ \\subset ⊃ \\supset ≺ \\prec ≻ \\succ' };
const amsTable = { page: 72, text: '表 4.20：AMS 其他符号\n~ \\hbar ℏ \\hslash k \\Bbbk △ \\vartriangle ▲ \\blacktriangle { \\complement ð \\eth' };

let index: Awaited<ReturnType<typeof indexedDatabase>> | undefined;

beforeAll(async () => {
  index = await indexedDatabase('fusion', { guide: [...chapter, named, ...apart, together, ...otherPages], manual: [...mathPages, symbolTable, amsTable] });
  db = index.db;
}, 60_000);

afterAll(() => index?.close());

describe('hybridSearch without embeddings', () => {
  it('puts the passage holding the name a question asks about among the first five, though BM25 ranks it below the second stage’s depth', async () => {
    const bm25 = await search(db, ['guide'], question, 100, { expand: true });
    const bm25Rank = bm25.findIndex((p) => p.page === named.page);
    expect(bm25Rank).toBeGreaterThanOrEqual(RERANK_DEPTH);

    const ranked = await hybridSearch(db, ['guide'], question, 8);

    expect(ranked.slice(0, 5).map((p) => p.page)).toContain(named.page);
    expect(nothingRelevant(ranked)).toBe(false);
  });

  it('still says nothing relevant was found when the name the question asks about is in no passage', async () => {
    const ranked = await hybridSearch(db, ['guide'], '编译时报 xindy 相关的错误，应该运行什么命令来解决', 8);
    expect(ranked.map((p) => p.page)).not.toContain(named.page);
    expect(nothingRelevant(ranked)).toBe(true);
  });

  it('does not answer from two passages found deeper down that each hold one of the two names asked about', async () => {
    const bm25 = (await search(db, ['guide'], '编译时报 pythontex 和 csvsimple 相关的错误，应该运行什么命令来解决', 100, { expand: true })).map((p) => p.page);
    expect(bm25.indexOf(70)).toBeGreaterThanOrEqual(RERANK_DEPTH);
    expect(bm25.indexOf(71)).toBeGreaterThanOrEqual(RERANK_DEPTH);
    expect(nothingRelevant(await hybridSearch(db, ['guide'], '编译时报 pythontex 和 csvsimple 相关的错误，应该运行什么命令来解决', 8))).toBe(true);

    const both = await hybridSearch(db, ['guide'], '编译时报 minted 和 pygments 相关的错误，应该运行什么命令来解决', 8);
    expect(both.slice(0, 5).map((p) => p.page)).toContain(together.page);
    expect(nothingRelevant(both)).toBe(false);
  });

  it('ranks the symbol table writing the command of a symbol the question pastes, though BM25 ranks it below the second stage’s depth', async () => {
    const asked = '集合里表示包含某个元素的那个反过来的属于号 ∋，在公式里用什么命令输入？';
    const bm25 = (await search(db, ['manual'], asked, 100, { expand: true })).map((p) => p.page);
    expect(bm25.indexOf(symbolTable.page)).toBeGreaterThanOrEqual(RERANK_DEPTH);

    const ranked = await hybridSearch(db, ['manual'], asked, 8);

    expect(ranked.slice(0, 5).map((p) => p.page)).toContain(symbolTable.page);
    expect(nothingRelevant(ranked)).toBe(false);
  });

  it('knows the commands of math symbols beyond the common ones (∁ is \\complement, from unicode-math’s table)', async () => {
    const ranked = await hybridSearch(db, ['manual'], '集合论里表示补集的符号 ∁ 用哪个命令输入，需要加载什么宏包', 8);
    expect(ranked.slice(0, 5).map((p) => p.page)).toContain(amsTable.page);
    expect(nothingRelevant(ranked)).toBe(false);
  });
});
