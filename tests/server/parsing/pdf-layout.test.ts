import { describe, expect, it } from 'vitest';
import { layoutDocument, toMarkdown, type PageText, type Run } from '../../../src/server/parsing/pdf-layout';

const run = (text: string, x: number, y: number, size = 10): Run => ({ text, x, y, size, width: text.length * size * 0.5 });

/** A two-column page whose content stream interleaves the columns line by line (as some producers do). */
function twoColumnPage(): PageText {
  const runs: Run[] = [run('A Study of Two Columns', 150, 780, 18)];
  for (let i = 0; i < 20; i++) {
    const y = 740 - i * 12;
    runs.push(run(`left column line number ${String(i + 1).padStart(2, '0')} text`, 50, y));
    runs.push(run(`right column line number ${String(i + 1).padStart(2, '0')} text`, 320, y));
  }
  runs.push(run('A full width closing paragraph that spans the page from margin to margin', 50, 460));
  return { page: 1, width: 612, height: 792, runs };
}

describe('reading order', () => {
  it('reads the left column before the right one on a two-column page', () => {
    const md = toMarkdown(layoutDocument([twoColumnPage()]));
    const lastLeft = md.indexOf('left column line number 20');
    const firstRight = md.indexOf('right column line number 01');
    expect(lastLeft).toBeGreaterThan(0);
    expect(firstRight).toBeGreaterThan(lastLeft);
    expect(md.indexOf('full width closing paragraph')).toBeGreaterThan(md.indexOf('right column line number 20'));
    expect(md).toMatch(/^# A Study of Two Columns$/m);
  });

  it('keeps single-column text in one flow, joining lines into paragraphs with boxes in points', () => {
    const page: PageText = { page: 2, width: 612, height: 792, runs: [run('第一行中文', 72, 700), run('第二行中文。', 72, 688), run('Next paragraph far below.', 72, 600)] };
    const blocks = layoutDocument([page]);
    expect(blocks.map((b) => b.text)).toEqual(['第一行中文第二行中文。', 'Next paragraph far below.']);
    const [x0, y0, x1, y1] = blocks[0]!.bbox;
    expect(x0).toBe(72);
    expect(y0).toBeLessThan(688);
    expect(y1).toBeGreaterThan(700);
    expect(x1).toBeGreaterThan(x0);
    expect(blocks[0]!.page).toBe(2);
  });
});

describe('reading order when the columns do not share baselines', () => {
  it('still reads column by column, and keeps a full-width paragraph whole', () => {
    const runs: Run[] = [
      run('Full width opening paragraph line one that runs across the page width', 50, 760),
      run('and its second line which also spans the whole page from left to right', 50, 748),
    ];
    for (let i = 0; i < 12; i++) {
      runs.push(run(`left entry ${String(i + 1).padStart(2, '0')} of the left column`, 50, 720 - i * 13));
      runs.push(run(`right entry ${String(i + 1).padStart(2, '0')} of the right column`, 320, 714 - i * 13.5));
    }
    const md = toMarkdown(layoutDocument([{ page: 1, width: 612, height: 792, runs }]));
    expect(md).toContain('Full width opening paragraph line one that runs across the page width and its second line');
    expect(md.indexOf('right entry 01')).toBeGreaterThan(md.indexOf('left entry 12'));
  });
});

describe('structure', () => {
  it('finds headings by size with levels, list items and aligned tables', () => {
    const runs: Run[] = [
      run('Title Of The Paper', 72, 760, 20),
      run('1 Introduction', 72, 720, 14),
      run('Body text of a paragraph that is long enough to be body text for sure.', 72, 700),
      run('Body text continues on the next line with the same size as before here.', 72, 688),
      run('• first bullet item', 72, 660),
      run('• second bullet item', 72, 646),
      run('Compound', 72, 610), run('IC50 (nM)', 250, 610), run('Selectivity', 400, 610),
      run('Imatinib', 72, 596), run('25', 250, 596), run('high', 400, 596),
      run('Dasatinib', 72, 582), run('0.8', 250, 582), run('medium', 400, 582),
    ];
    const md = toMarkdown(layoutDocument([{ page: 1, width: 612, height: 792, runs }]));
    expect(md).toMatch(/^# Title Of The Paper$/m);
    expect(md).toMatch(/^## 1 Introduction$/m);
    expect(md).toMatch(/^- first bullet item$/m);
    expect(md).toMatch(/^- second bullet item$/m);
    expect(md).toContain('| Compound | IC50 (nM) | Selectivity |\n| --- | --- | --- |\n| Imatinib | 25 | high |\n| Dasatinib | 0.8 | medium |');
  });

  it('drops running heads and page numbers repeated on every page', () => {
    const pages: PageText[] = [1, 2, 3, 4].map((n) => ({
      page: n,
      width: 612,
      height: 792,
      runs: [run('Journal of Testing Vol 1', 72, 770), run(`Content of page ${n} with enough words in it.`, 72, 600), run(String(n), 300, 30)],
    }));
    const md = toMarkdown(layoutDocument(pages));
    expect(md).not.toContain('Journal of Testing');
    expect(md).not.toMatch(/^\d$/m);
    expect(md).toContain('Content of page 3 with enough words in it.');
  });
});

describe('running heads named after their section', () => {
  // A book with twelve pages of front matter: page 13 is printed "1". Odd pages carry the section
  // and the printed number at the top edge, each section for two pages at most, so no head repeats.
  const sections = ['§1.1 安装', '§1.2 第一次使用', '§2.1 命令', '§2.2 环境', '§3.1 表格', '§3.2 插图'];
  const pages: PageText[] = Array.from({ length: 12 }, (_, i) => {
    const page = 13 + i;
    const printed = page - 12;
    const head = printed % 2 ? `${sections[Math.floor(i / 2)]} ${printed}` : `${printed} 第${Math.ceil(printed / 4)}章`;
    const runs = [run(head, 72, 770), run(`正文第 ${printed} 页，讲的是排版中的具体做法和需要注意的地方。`, 72, 600)];
    // A numbered heading a little below the edge, on a page whose printed number it happens to hold.
    if (printed === 5) runs.push(run('5 浮动体的位置', 72, 700, 14));
    return { page, width: 612, height: 792, runs };
  });

  it('are dropped when they carry the page’s printed number, whatever the offset of the numbering', () => {
    const md = toMarkdown(layoutDocument(pages));
    expect(md).not.toContain('§');
    expect(md).not.toMatch(/第\d章/);
    expect(md).toContain('正文第 7 页');
    expect(md).toContain('5 浮动体的位置');
  });

  it('stay when the number they end with is not the page’s (a short line at the edge of a page that prints no numbers)', () => {
    const md = toMarkdown(layoutDocument([{ page: 1, width: 612, height: 792, runs: [run('Table 7', 72, 770), run('正文，一段足够长的内容，说明表格的用法。', 72, 600)] }]));
    expect(md).toContain('Table 7');
  });
});

describe('passages for the index', () => {
  it('never join the two columns in one box, and keep a heading with its first paragraph', async () => {
    const { chunkBlocks } = await import('../../../src/server/parsing/chunks');
    const runs: Run[] = [run('Results', 50, 760, 16)];
    for (let i = 0; i < 10; i++) {
      runs.push(run(`left column text ${i} about kinase selectivity`, 50, 730 - i * 12));
      runs.push(run(`right column text ${i} about solubility of the series`, 330, 726 - i * 12.5));
    }
    const chunks = chunkBlocks(layoutDocument([{ page: 1, width: 612, height: 792, runs }]));
    for (const c of chunks) {
      const [x0, , x1] = c.bbox!;
      expect(x1 <= 306 || x0 >= 306, `${c.text.slice(0, 40)} spans ${x0}–${x1}`).toBe(true);
    }
    expect(chunks[0]!.text.startsWith('Results\nleft column text 0')).toBe(true);
    expect(chunks.some((c) => c.text.includes('right column text 0'))).toBe(true);
  });
});
