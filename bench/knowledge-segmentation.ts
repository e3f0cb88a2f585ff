// Which index tokens find Chinese terms best? Measures P@5, R@10 and MRR of FTS5/BM25 over the
// passages of real Chinese PDFs (scripts/fetch-test-docs.mjs) for three tokenisations:
// Intl.Segmenter words, words + character bigrams (what src/server/text/segment.ts does),
// and FTS5's own trigram tokenizer on raw text. A passage is relevant when it contains the term.
// Run: npx tsx bench/knowledge-segmentation.ts
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { parsePdf } from '../src/server/parsing/pdf';
import { tokens } from '../src/server/text/segment';

const docsDir = execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
const chunks: string[] = [];
for (const f of ['zhlipsum.pdf', 'zhnumber.pdf', 'lshort-zh-cn.pdf']) chunks.push(...(await parsePdf(path.join(docsDir, f), () => {})).chunks.map((c) => c.text));

const HAN1 = /^\p{Script=Han}$/u;
const orQuery = (list: string[]) => {
  let unique = [...new Set(list)];
  const long = unique.filter((t) => !HAN1.test(t));
  if (long.length) unique = long;
  return unique.length ? unique.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ') : null;
};
const strategies: Record<string, { index: (t: string) => string; query: (q: string) => string | null; tokenizer?: string }> = {
  words: { index: (t) => tokens(t, { bigrams: false }).join(' '), query: (q) => orQuery(tokens(q, { bigrams: false })) },
  'words+bigrams': { index: (t) => tokens(t).join(' '), query: (q) => orQuery(tokens(q)) },
  'fts5 trigram': { index: (t) => t, query: (q) => ([...q].length >= 3 ? `"${q}"` : null), tokenizer: 'trigram' },
};
const queries = ['泰斯丢', '丘那德', '康纳马拉', '阿司匹林', '鲁迅', '乱数假文', '编码', '宏包', '段落', '中文数字', '干支', '星期', '繁体中文', '彭奇', '瓦特曼', '项羽本纪', '山海经', '天干', '地支', '数学公式', '参考文献', '交叉引用', '浮动体', '宏包选项', '页眉页脚', '目录', '字体', '表格', '插图', '命令', '环境', '盒子', '长度', '计数器', '模板', '索引'];

console.log(`${chunks.length} passages`);
for (const [name, s] of Object.entries(strategies)) {
  const db = new SQLite(':memory:');
  db.exec(`create virtual table f using fts5(t${s.tokenizer ? `, tokenize='${s.tokenizer}'` : ''})`);
  const insert = db.prepare('insert into f(rowid, t) values (?, ?)');
  chunks.forEach((c, i) => insert.run(i + 1, s.index(c)));
  let p5 = 0;
  let r10 = 0;
  let mrr = 0;
  let n = 0;
  let none = 0;
  for (const q of queries) {
    const relevant = new Set(chunks.flatMap((c, i) => (c.includes(q) ? [i + 1] : [])));
    if (!relevant.size) continue;
    n++;
    const m = s.query(q);
    const rows = m ? (db.prepare('select rowid from f where f match ? order by bm25(f) limit 10').all(m) as Array<{ rowid: number }>) : [];
    if (!rows.length) none++;
    p5 += rows.slice(0, 5).filter((r) => relevant.has(r.rowid)).length / Math.min(5, relevant.size);
    r10 += rows.filter((r) => relevant.has(r.rowid)).length / Math.min(10, relevant.size);
    const first = rows.findIndex((r) => relevant.has(r.rowid));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  console.log(`${name.padEnd(14)} queries=${n} P@5=${(p5 / n).toFixed(3)} R@10=${(r10 / n).toFixed(3)} MRR=${(mrr / n).toFixed(3)} no-result=${none}`);
  db.close();
}
