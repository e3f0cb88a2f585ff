import { describe, expect, it } from 'vitest';
import { labelNear } from '../../../../src/server/parsing/chemistry/labels';
import { normaliseLabel } from '../../../../src/server/text/compound-label';
import { layoutDocument, type Block, type Box, type Run } from '../../../../src/server/parsing/pdf-layout';

const block = (text: string, bbox: Box, extra: Partial<Block> = {}): Block => ({ kind: 'paragraph', page: 1, bbox, text, size: 10, ...extra });

describe('normaliseLabel', () => {
  it('reads Chinese and English labels with letters and primes to one key', () => {
    expect(normaliseLabel('化合物 12')).toBe('12');
    expect(normaliseLabel('化合物12a')).toBe('12a');
    expect(normaliseLabel('（化合物 12a）')).toBe('12a');
    expect(normaliseLabel('实施例 23')).toBe('23');
    expect(normaliseLabel('compound 7b')).toBe('7b');
    expect(normaliseLabel('Compound 7B')).toBe('7b');
    expect(normaliseLabel('Example 23')).toBe('23');
    expect(normaliseLabel('cpd 4b')).toBe('4b');
    expect(normaliseLabel('12a')).toBe('12a');
    expect(normaliseLabel('(12a)')).toBe('12a');
    expect(normaliseLabel('**12**')).toBe('12');
    expect(normaliseLabel('7′')).toBe("7'");
    expect(normaliseLabel("7'")).toBe("7'");
    expect(normaliseLabel('7’')).toBe("7'");
    expect(normaliseLabel('compound 7″')).toBe("7''");
    expect(normaliseLabel('化合物 I-3')).toBe('i-3');
    expect(normaliseLabel('3-1')).toBe('3-1');
    expect(normaliseLabel('０１２')).toBe('12');
  });

  it('the same compound written in a table cell and under a drawing gets the same key', () => {
    expect(normaliseLabel('化合物 12a')).toBe(normaliseLabel('12a'));
    expect(normaliseLabel('Example 23')).toBe(normaliseLabel('实施例23'));
  });

  it('rejects captions, sentences, measures and bare years', () => {
    expect(normaliseLabel('Figure 2. Synthesis of compound 12')).toBeNull();
    expect(normaliseLabel('Compound 12 was prepared from 7b in two steps.')).toBeNull();
    expect(normaliseLabel('图 2 化合物 12 的合成路线')).toBeNull();
    expect(normaliseLabel('Table 1')).toBeNull();
    expect(normaliseLabel('IC50')).toBeNull();
    expect(normaliseLabel('2023')).toBeNull();
    expect(normaliseLabel('12 nM')).toBeNull();
    expect(normaliseLabel('')).toBeNull();
    expect(normaliseLabel('compounds 12a–c')).toBeNull();
  });
});

describe('labelNear', () => {
  const drawing: Box = [100, 400, 250, 520];

  it('finds the label below a drawing', () => {
    const blocks = [block('化合物 12', [150, 380, 200, 392]), block('Some body text far below the drawing on this page.', [50, 200, 500, 260])];
    expect(labelNear(blocks, drawing)).toBe('12');
  });

  it('finds a label beside or above a drawing', () => {
    expect(labelNear([block('compound 7b', [262, 450, 330, 462])], drawing)).toBe('7b');
    expect(labelNear([block("7'", [165, 526, 180, 538])], drawing)).toBe("7'");
  });

  it('prefers the nearer label and ignores a caption and body text', () => {
    const blocks = [
      block('Figure 2. Synthesis of compound 12 (reagents and conditions).', [100, 360, 400, 372]),
      block('Compound 12 was prepared from 7b in two steps and showed IC50 = 12 nM.', [100, 530, 500, 560]),
      block('Example 23', [140, 384, 210, 396]),
      block('Example 24', [140, 300, 210, 312]),
    ];
    expect(labelNear(blocks, drawing)).toBe('23');
    expect(labelNear(blocks.slice(0, 2), drawing)).toBeNull();
  });

  it('returns null when the only label belongs to a drawing far away', () => {
    expect(labelNear([block('12a', [450, 100, 470, 112])], drawing)).toBeNull();
  });

  it('picks each drawing its own label from a line of labels under a row of drawings', () => {
    // Three drawings side by side; the labels under them as laid out from pdf.js runs.
    const run = (text: string, x: number): Run => ({ text, x, y: 380, size: 10, width: text.length * 5 });
    const blocks = layoutDocument([{ page: 1, width: 612, height: 792, runs: [run('12a', 110), run('12b', 290), run('12c', 470)] }]);
    const boxes: Box[] = [[60, 395, 180, 500], [240, 395, 360, 500], [420, 395, 540, 500]];
    expect(boxes.map((b) => labelNear(blocks, b))).toEqual(['12a', '12b', '12c']);
  });
});
