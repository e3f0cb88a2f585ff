import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { chunkBlocks } from '../../../src/server/parsing/chunks';
import { looksLikeNavigation, looksLikeReferences, navigationKinds } from '../../../src/server/parsing/navigation';
import { parsePdf } from '../../../src/server/parsing/pdf';
import type { Block } from '../../../src/server/parsing/pdf-layout';
import type { ParseResult } from '../../../src/server/parsing/protocol';
import { search } from '../../../src/server/retrieval/search';
import { knowledgePort } from '../../../src/server/retrieval/knowledge-port';
import { CITED_TOP } from '../../../src/server/retrieval/rerank';
import { PASSAGES_PER_ANSWER } from '../../../src/server/answering/answers';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';
import { answerText, ask, readEvents } from '../answering-helpers';
import { citedByAnswer, headingOf, mergeDuplicates, NOTHING_FOUND, subjectTokens } from '../../../src/server/answering/local-engine';
import type { NumberedPassage } from '../../../src/server/answering/engine';

// postgres: sqlite-only — its subject is how pages are cut into passages and which are quoted; on PostgreSQL retrieval returns the same passages, in the same order, with the same scores as on SQLite (db/postgres-retrieval.test.ts, over the evaluation set's real documents).

// Navigation passages (tables of contents, indexes, reference lists) are recognised at parse time
// and kept out of the index, and FAQ questions keep their answers — on real documents nobody here
// wrote (scripts/fetch-test-docs.mjs): ctex-faq.pdf, whose four contents pages used to fill the
// top 5 for "CTeX 套装和 CTeX 宏包有什么区别？", and lshort-zh-cn.pdf with its index and bibliography.
const ROOT = path.resolve(__dirname, '../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
const real = (name: string) => fs.readFileSync(path.join(docsDir, name));

const block = (page: number, y: number, text: string, kind: Block['kind'] = 'paragraph'): Block => ({ kind, page, bbox: [72, y, 500, y + 12], text, size: 10 });
const answer = (s: string) => `${s}：这是一段足够长的回答，说明具体的做法、原因和需要注意的地方，读者读完就能照着操作。`;

describe('navigation blocks', () => {
  it('are told apart from content by leaders, index entries, reference items and the contents page', () => {
    const blocks = [
      block(1, 700, '目录'),
      block(1, 680, '1 简介 . . . . . . . . . . . . 1\n2 安装 . . . . . . . . . . . 3'),
      block(1, 660, '前言 | v'),
      block(1, 640, '附录A | 99'),
      block(1, 620, '3 使用……………………12 4 常见问题……………………20'),
      block(2, 700, answer('第一段正文')),
      block(3, 700, '\\caption, 22, 29 | footmisc, 29, 30\n\\centering, 23 | footnote, 29\namsmath, 6, 18–21'),
      block(4, 700, '参考文献', 'heading'),
      block(4, 680, '[1] Leslie Lamport. LATEX: A Document Preparation System. Addison-Wesley, 1994.\n[2] Donald E. Knuth. The TeXbook. 1984.'),
      block(5, 700, '在 2021 年，30 位作者参与了翻译，共 12 章。正文中偶尔出现的数字和逗号不会让段落变成索引。'),
    ];
    expect(navigationKinds(blocks)).toEqual(['toc', 'toc', 'toc', 'toc', 'toc', 'content', 'index', 'references', 'references', 'content']);
    expect(looksLikeNavigation('8 TEX和LATEX是什么关系？. . . . . . . . . . . . 6\n9 LATEX 2.09和LATEX 2ε有什么区别？. . . . . . . 6')).toBe(true);
    expect(looksLikeNavigation(answer('正文'))).toBe(false);
  });

  it('never share a passage with content, and are marked with their kind', () => {
    const chunks = chunkBlocks([block(1, 700, answer('正文')), block(1, 680, '1 简介和背景 . . . . . . . . . . . . 1\n2 安装与配置 . . . . . . . . . . . 3\n3 使用方法 . . . . . . . . . . . 9')]);
    expect(chunks.map((c) => c.kind)).toEqual(['content', 'toc']);
  });
});

describe('structure-aware passages', () => {
  it('start at a FAQ question and keep its answer, even when the answer begins on the next page', () => {
    const chunks = chunkBlocks([
      block(6, 300, answer('问题 8 的回答')),
      block(6, 100, '9 LATEX 2.09和LATEX 2ε有什么区别？'),
      block(7, 700, answer('LATEX 2.09是LATEX 2ε之前的一个版本')),
      block(7, 600, '10 MiKTEX、fpTEX、teTEX、CTEX又是什么关系？'),
      block(7, 580, answer('CTEX指的是CTEX中文套装的简称')),
    ]);
    expect(chunks.map((c) => [c.page, c.text.split('\n')[0]])).toEqual([
      [6, answer('问题 8 的回答')],
      [7, '9 LATEX 2.09和LATEX 2ε有什么区别？'],
      [7, '10 MiKTEX、fpTEX、teTEX、CTEX又是什么关系？'],
    ]);
    // The moved question's passage has its box around the answer on page 7, not a box from page 6.
    expect(chunks[1]!.bbox).toEqual([72, 700, 500, 712]);
    expect(chunks[2]!.text).toContain('CTEX指的是CTEX中文套装的简称');
  });

  it('keep a caption with its table, even past the passage size', () => {
    const long = '很长的正文。'.repeat(110);
    const table: Block = { kind: 'table', page: 2, bbox: [72, 400, 500, 500], text: '宏包 | 用途\nbooktabs | 三线表\nlongtable | 跨页表格', rows: [], size: 10 };
    const chunks = chunkBlocks([block(2, 600, long), block(2, 520, '表 3.1 常用的表格宏包'), table, block(2, 300, answer('表格之后的正文'))]);
    const withTable = chunks.find((c) => c.text.includes('booktabs'))!;
    expect(withTable.text.startsWith('表 3.1 常用的表格宏包\n宏包 | 用途')).toBe(true);
    expect(withTable.bbox![1]).toBeLessThanOrEqual(400);
    expect(withTable.bbox![3]).toBe(532);
  });
});

describe('ctex-faq.pdf (a FAQ with four pages of contents) and lshort-zh-cn.pdf', () => {
  let faq: ParseResult;
  let server: TestServer;
  let me: Client;
  let db: Db;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    faq = await parsePdf(path.join(docsDir, 'ctex-faq.pdf'), () => {});
    server = await startServer();
    me = (await signedInUser(server)).client;
    const files = ['ctex-faq.pdf', 'lshort-zh-cn.pdf'];
    const up = await upload(me, files.map((name) => ({ name, data: real(name) })));
    expect(up.status).toBe(200);
    for (const { name, docId } of up.body.data.name_id) ids[name] = docId;
    for (const id of Object.values(ids)) expect((await waitParsed(me, id, 180_000)).parseStatus).toBe(2);
    db = await openTestDatabase(server.dataDir);
  }, 240_000);
  afterAll(async () => {
    await db?.destroy();
    await server?.close();
  });

  it('marks the contents pages, the references and the index of the FAQ as navigation', () => {
    const kinds = (page: number) => new Set(faq.chunks.filter((c) => c.page === page).map((c) => c.kind));
    for (const page of [2, 3]) expect(kinds(page)).toEqual(new Set(['toc']));
    expect(faq.chunks.some((c) => c.page === 35 && c.kind === 'references' && c.text.includes('[8] Michel Goossens'))).toBe(true);
    expect(faq.chunks.filter((c) => c.page === 36).every((c) => c.kind === 'index')).toBe(true);
    // Every answer is content, with its question in front.
    const q17 = faq.chunks.find((c) => c.text.startsWith('17 CTEX中文套装软件的Basic和Full版本都有什么区别？'))!;
    expect(q17).toMatchObject({ kind: 'content', page: 9 });
    expect(q17.text).toContain('Full版本需要六百多兆的安装空间');
    // The markdown (what the document view shows) keeps the contents.
    expect(faq.markdown).toContain('17 CTEX中文套装软件的Basic和Full版本都有什么区别？. . .');
  });

  it('indexes no contents or index, and indexes the reference lists of the FAQ and lshort', async () => {
    const rows = await db.selectFrom('kb_chunks').select(['doc_id', 'page', 'text']).where('doc_id', 'in', Object.values(ids)).execute();
    expect(rows.length).toBeGreaterThan(400);
    expect(rows.filter((r) => looksLikeNavigation(r.text)).map((r) => `${r.page}: ${r.text.slice(0, 60)}`)).toEqual([]);
    const references = rows.filter((r) => looksLikeReferences(r.text));
    expect(new Set(references.map((r) => `${r.doc_id === ids['ctex-faq.pdf'] ? 'faq' : 'lshort'}:${r.page}`))).toEqual(new Set(['faq:35', 'lshort:125', 'lshort:126']));
    expect(references.some((r) => r.text.includes('[4]张林波。关于新版CCT的说明，2003。'))).toBe(true);
  });

  it('keeps the contents apart and answers a question about a part of the FAQ from them, quoting its items', async () => {
    const outline = await db.selectFrom('kb_outline').select(['page', 'text']).where('doc_id', '=', ids['ctex-faq.pdf']!).execute();
    expect(outline.map((r) => r.page)).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    const asked = await ask(me, 'CTEX FAQ 里“错误处理”那一部分收了哪几个问题？', { docIdList: [ids['ctex-faq.pdf']!] });
    const { events } = await readEvents(me, asked.questionId);
    const cited = events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(cited.some((c) => c.page === 4 && String(c.text).includes('M错误处理'))).toBe(true);
    expect(answerText(events)).not.toContain(NOTHING_FOUND);
    expect(answerText(events)).toContain('错误处理');
  });

  it('answers a question about a work the FAQ cites, and one its annotated reference list answers, from the lists', async () => {
    const asked = await ask(me, '参考文献里那份关于新版 CCT 的说明是谁写的', { docIdList: [ids['ctex-faq.pdf']!] });
    const { events } = await readEvents(me, asked.questionId);
    const cited = events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(cited[0]).toMatchObject({ n: 1, page: 35 });
    expect(String(cited[0]!.text)).toContain('张林波');
    expect(answerText(events)).not.toContain(NOTHING_FOUND);
    // The quote of that item keeps its author, who is what was asked.
    expect(answerText(events)).toContain('张林波。关于新版CCT的说明，2003。');
    // lshort's list says where each work is found on the machine: "(texdoc symbols-a4)".
    const symbols = await ask(me, '收录了所有可用 LaTeX 符号的那份符号大全，用 texdoc 命令在本地怎么打开', { docIdList: [ids['lshort-zh-cn.pdf']!] });
    const quoted = (await readEvents(me, symbols.questionId)).events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(quoted.some((c) => c.page === 126 && String(c.text).includes('texdoc symbols'))).toBe(true);
  });

  it('answers "CTeX 套装和 CTeX 宏包有什么区别？" with answering paragraphs, no contents line', async () => {
    const hits = await search(db, [ids['ctex-faq.pdf']!], 'CTeX 套装和 CTeX 宏包有什么区别？', 5);
    expect(hits.length).toBe(5);
    for (const h of hits) expect(h.text).not.toMatch(/(?:\. ){4,}/);
    expect(hits.some((h) => h.page === 7 && h.text.includes('CTEX指的是CTEX中文套装的简称'))).toBe(true);
    expect(hits.some((h) => h.page === 9 && h.text.startsWith('18 CTEX-Fonts、CTEX-CS、CTEX-Ext都是干什么的？'))).toBe(true);
  });

  it('finds a question with its answer, and the rest of the answer on the next page by the question’s words', async () => {
    const hits = await search(db, [ids['ctex-faq.pdf']!], 'LaTeX 2.09 与 LaTeX2e 有什么区别', 3);
    expect(hits.slice(0, 2).map((h) => h.page).sort()).toEqual([6, 7]);
    expect(hits.find((h) => h.page === 6)!.text.startsWith('9 LATEX 2.09和LATEX 2ε有什么区别？\nLATEX 2.09是LATEX在LATEX 2ε之前的一个版本')).toBe(true);
    expect(hits.find((h) => h.page === 7)!.text.startsWith('义文档类型以及所包含宏包')).toBe(true);
  });

  it('answers without a model with the best passage first under its question, at most five quotes, each cited, no contents line', async () => {
    const { questionId } = await ask(me, 'CTeX 套装的 Basic 版和 Full 版有什么区别？', { docIdList: [ids['ctex-faq.pdf']!] });
    const { events } = await readEvents(me, questionId);
    const text = answerText(events);
    const cited = events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(cited.length).toBeGreaterThanOrEqual(1);
    expect(cited.length).toBeLessThanOrEqual(CITED_TOP);
    expect(cited[0]).toMatchObject({ n: 1, page: 9 });
    // The heading (the FAQ question) above the first quote, which is longer than the others.
    expect(text).toContain('> 17 CTEX中文套装软件的Basic和Full版本都有什么区别？');
    expect(text).toMatch(/第9页：“[^”]*Basic[^”]*” \[1\]/);
    expect(text).not.toMatch(/(?:\. ){4,}/);
    expect([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))).toEqual(cited.map((c) => c.n));
  });

  it('cites retrieval’s best passages for "CTeX 套装和 CTeX 宏包有什么区别？" in its order, each once', async () => {
    const question = 'CTeX 套装和 CTeX 宏包有什么区别？';
    const { questionId } = await ask(me, question, { docIdList: [ids['ctex-faq.pdf']!] });
    const { events } = await readEvents(me, questionId);
    const text = answerText(events);
    // The passages the server's own search ranks best, as the answer was given them.
    const retrieved = (await knowledgePort(db).search([ids['ctex-faq.pdf']!], question, PASSAGES_PER_ANSWER)).map((p, i) => ({ ...p, n: i + 1 }));
    const expected = citedByAnswer(retrieved, subjectTokens(question));
    expect(expected.length).toBeGreaterThanOrEqual(4);
    const cited = events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(cited.map((c) => `${String(c.page)}:${String(c.text)}`)).toEqual(expected.map((p) => `${p.page}:${p.text}`));
    expect(cited.map((c) => c.n)).toEqual(expected.map((_, i) => i + 1));
    // The best passage first under its FAQ question (the Basic/Full entry of page 9).
    expect(cited[0]).toMatchObject({ page: 9 });
    expect(text).toMatch(/第9页：“[^”]*Basic[^”]*” \[1\]/);
  });

  it('researches "系统总结 LaTeX 中插图、表格和浮动体的用法与常见问题" item by item, each section quoting the pages on its item', async () => {
    const { questionId } = await ask(me, '系统总结 LaTeX 中插图、表格和浮动体的用法与常见问题', { docIdList: [ids['lshort-zh-cn.pdf']!], deepresearch: true });
    const { events } = await readEvents(me, questionId);
    const sections = answerText(events).split(/^### /m);
    const pagesOf = (title: string) => [...sections.find((s) => s.startsWith(title))!.matchAll(/第(\d+)页/g)].map((m) => Number(m[1]));
    // lshort's sections 3.7 图片 (page 44), 3.6 表格 (page 39) and 3.9 浮动体 (page 47) lead their
    // items' sections; appendix B on errors (page 119), which shares the question's 总结, 常见 and
    // 问题 but no item, leads none of them and is quoted only under the whole question.
    expect(pagesOf('1. 系统总结 LaTeX 中插图')[0]).toBe(44);
    expect(pagesOf('2. 系统总结 LaTeX 中表格')[0]).toBe(39);
    expect(pagesOf('3. 系统总结 LaTeX 中浮动体')[0]).toBe(47);
    for (const n of [1, 2, 3]) expect(pagesOf(`${n}. `)).not.toContain(119);
  });

  it('says it found nothing in the chosen sources when no passage covers the question', async () => {
    const { questionId } = await ask(me, '阿司匹林的分子量是多少？', { docIdList: [ids['ctex-faq.pdf']!, ids['lshort-zh-cn.pdf']!] });
    const { events } = await readEvents(me, questionId);
    expect(answerText(events)).toContain(NOTHING_FOUND);
    expect(events.filter((e) => e.event === 'citation')).toEqual([]);
  });
});

describe('quotes of the answer without a model', () => {
  const numbered = (n: number, docId: string, text: string): NumberedPassage => ({ n, docId, title: `${docId}.pdf`, page: 1, bbox: null, text, score: 1 });
  it('merge near-duplicate passages (the same text in two documents) into one quote', () => {
    const text = 'Basic版本中的MiKTEX只有最基本的LATEX系统，Full版本包含完整的MiKTEX。';
    const groups = mergeDuplicates([numbered(1, 'a', text), numbered(2, 'b', `${text} `), numbered(3, 'a', '完全不同的一段话，讲的是表格和脚注。')]);
    expect(groups.map((g) => g.map((p) => p.n))).toEqual([[1, 2], [3]]);
  });
  it('take a first line that is a question or a heading as the heading, never a sentence', () => {
    expect(headingOf('17 CTEX中文套装软件的Basic和Full版本都有什么区别？\n回答。')).toBe('17 CTEX中文套装软件的Basic和Full版本都有什么区别？');
    expect(headingOf('3.6 表格\n正文。')).toBe('3.6 表格');
    expect(headingOf('这是一句完整的话。\n下一句。')).toBeNull();
    expect(headingOf('只有一行')).toBeNull();
  });
});
