import { describe, expect, it } from 'vitest';
import { cellValue, columnOf, extractActivities, sentenceActivities, tableActivities, targetIn, toNanomolar } from '../../../../src/server/parsing/chemistry/activities';
import { layoutDocument, type Block, type Run } from '../../../../src/server/parsing/pdf-layout';

const table = (rows: string[][], extra: Partial<Block> = {}): Block => ({ kind: 'table', page: 3, bbox: [50, 300, 550, 400], text: rows.map((r) => r.join(' ')).join('\n'), rows, size: 9, ...extra });
const pick = (a: { label: string | null; target: string | null; measure: string; relation: string; value: number; unit: string; valueNm: number | null; concentration: string | null }) => ({ label: a.label, target: a.target, measure: a.measure, relation: a.relation, value: a.value, unit: a.unit, valueNm: a.valueNm, concentration: a.concentration });

describe('units and cells', () => {
  it('normalises concentrations to nM', () => {
    expect(toNanomolar(12, 'nM')).toBe(12);
    expect(toNanomolar(0.3, 'μM')).toBe(300);
    expect(toNanomolar(500, 'pM')).toBe(0.5);
    expect(toNanomolar(1.5, 'mM')).toBe(1_500_000);
    expect(toNanomolar(1e-6, 'M')).toBe(1000);
    expect(toNanomolar(85, '%')).toBeNull();
  });

  it('reads cells with relations, errors and footnote marks; not ND or dashes', () => {
    expect(cellValue('12')).toEqual({ relation: '=', value: 12, unit: null });
    expect(cellValue('< 10')).toEqual({ relation: '<', value: 10, unit: null });
    expect(cellValue('>10,000')).toEqual({ relation: '>', value: 10000, unit: null });
    expect(cellValue('≤0.1 μM')).toEqual({ relation: '<=', value: 0.1, unit: 'μM' });
    expect(cellValue('~5 µM')).toEqual({ relation: '~', value: 5, unit: 'μM' });
    expect(cellValue('≥ 50 uM')).toEqual({ relation: '>=', value: 50, unit: 'μM' });
    expect(cellValue('12 ± 3')).toEqual({ relation: '=', value: 12, unit: null });
    expect(cellValue('45 (n = 3)')).toEqual({ relation: '=', value: 45, unit: null });
    expect(cellValue('85%')).toEqual({ relation: '=', value: 85, unit: '%' });
    expect(cellValue('7.3a')).toEqual({ relation: '=', value: 7.3, unit: null });
    for (const bad of ['ND', 'NT', '–', '-', 'n.d.', 'inactive', '']) expect(cellValue(bad)).toBeNull();
  });

  it('reads measure, unit, target and concentration from a header', () => {
    expect(columnOf('CDK2 IC50 (nM)')).toMatchObject({ measure: 'IC50', unit: 'nM', target: 'CDK2' });
    expect(columnOf('IC50 (μM)')).toMatchObject({ measure: 'IC50', unit: 'μM', target: null });
    expect(columnOf('Ki/nM')).toMatchObject({ measure: 'Ki', unit: 'nM' });
    expect(columnOf('EGFR T790M Kd (nM)')).toMatchObject({ measure: 'Kd', target: 'EGFR T790M' });
    expect(columnOf('% inhibition at 10 μM')).toMatchObject({ measure: 'inhibition', unit: '%', concentration: '10 μM' });
    expect(columnOf('抑制率 (%) @ 1 μM')).toMatchObject({ measure: 'inhibition', concentration: '1 μM' });
    expect(columnOf('pIC50')).toMatchObject({ measure: 'IC50', unit: 'pIC50' });
    expect(columnOf('Compound')).toBeNull();
    expect(columnOf('MW')).toBeNull();
  });

  it('finds the target a sentence or caption names', () => {
    expect(targetIn('Table 2. Inhibitory activity of compounds 12a–12f against CDK2/cyclin A')).toBe('CDK2/cyclin');
    expect(targetIn('表 1 化合物对 CDK2 的抑制活性')).toBe('CDK2');
    expect(targetIn('EGFR inhibitory activity of the series')).toBe('EGFR');
    expect(targetIn('The compounds were tested in cells.')).toBeNull();
  });
});

describe('activity tables', () => {
  it('reads an English table: label column, target and unit from the header, nM values', () => {
    const t = table([
      ['Compound', 'R', 'CDK2 IC50 (nM)', 'CDK9 IC50 (μM)', '% inhibition at 10 μM'],
      ['12a', 'H', '45', '1.2', '85'],
      ['12b', 'Me', '<10', '>10', '97%'],
      ['12c', 'Cl', 'ND', '0.35', '40'],
    ]);
    const acts = tableActivities(t);
    expect(acts.map(pick)).toEqual([
      { label: '12a', target: 'CDK2', measure: 'IC50', relation: '=', value: 45, unit: 'nM', valueNm: 45, concentration: null },
      { label: '12a', target: 'CDK9', measure: 'IC50', relation: '=', value: 1.2, unit: 'μM', valueNm: 1200, concentration: null },
      { label: '12a', target: null, measure: 'inhibition', relation: '=', value: 85, unit: '%', valueNm: null, concentration: '10 μM' },
      { label: '12b', target: 'CDK2', measure: 'IC50', relation: '<', value: 10, unit: 'nM', valueNm: 10, concentration: null },
      { label: '12b', target: 'CDK9', measure: 'IC50', relation: '>', value: 10, unit: 'μM', valueNm: 10000, concentration: null },
      { label: '12b', target: null, measure: 'inhibition', relation: '=', value: 97, unit: '%', valueNm: null, concentration: '10 μM' },
      { label: '12c', target: 'CDK9', measure: 'IC50', relation: '=', value: 0.35, unit: 'μM', valueNm: 350, concentration: null },
      { label: '12c', target: null, measure: 'inhibition', relation: '=', value: 40, unit: '%', valueNm: null, concentration: '10 μM' },
    ]);
    // Each row cites its own part of the table: page and a box inside the table's, top to bottom.
    expect(acts[0]!.page).toBe(3);
    expect(acts[0]!.bbox).toEqual([50, 350, 550, 375]);
    expect(acts[3]!.bbox).toEqual([50, 325, 550, 350]);
    expect(acts[0]!.source).toBe('table');
    expect(acts[0]!.text).toContain('12a | H | 45');
  });

  it('reads a Chinese table whose target is in the caption and whose target row spans two measures', () => {
    const caption: Block = { kind: 'paragraph', page: 3, bbox: [50, 405, 550, 418], text: '表 1 化合物对 CDK2 的抑制活性', size: 10 };
    const t = table([
      ['化合物', 'IC50 (nM)', 'Ki (nM)'],
      ['化合物 7′', '≤ 5', '0.8'],
      ['8', '120', '~30'],
    ]);
    const acts = tableActivities(t, [caption, t]);
    expect(acts.map(pick)).toEqual([
      { label: "7'", target: 'CDK2', measure: 'IC50', relation: '<=', value: 5, unit: 'nM', valueNm: 5, concentration: null },
      { label: "7'", target: 'CDK2', measure: 'Ki', relation: '=', value: 0.8, unit: 'nM', valueNm: 0.8, concentration: null },
      { label: '8', target: 'CDK2', measure: 'IC50', relation: '=', value: 120, unit: 'nM', valueNm: 120, concentration: null },
      { label: '8', target: 'CDK2', measure: 'Ki', relation: '~', value: 30, unit: 'nM', valueNm: 30, concentration: null },
    ]);
    const twoRowHeader = table([
      ['Example', 'EGFR', '', 'HER2'],
      ['', 'IC50 (nM)', 'Kd (nM)', 'IC50 (nM)'],
      ['23', '3.1', '1.0', '450'],
    ]);
    expect(tableActivities(twoRowHeader).map((a) => [a.label, a.target, a.measure, a.valueNm])).toEqual([
      ['23', 'EGFR', 'IC50', 3.1],
      ['23', 'EGFR', 'Kd', 1],
      ['23', 'HER2', 'IC50', 450],
    ]);
  });

  it('turns pIC50 into nM with the relation turned around', () => {
    const acts = tableActivities(table([['Cpd', 'BRD4 pIC50'], ['4b', '7'], ['4c', '>8']]));
    expect(acts.map(pick)).toEqual([
      { label: '4b', target: 'BRD4', measure: 'IC50', relation: '=', value: 7, unit: 'pIC50', valueNm: 100, concentration: null },
      { label: '4c', target: 'BRD4', measure: 'IC50', relation: '<', value: 8, unit: 'pIC50', valueNm: 10, concentration: null },
    ]);
  });

  it('reads no activity from a table that is not an activity table', () => {
    expect(tableActivities(table([['Reagent', 'Amount', 'Yield (%)'], ['NaH', '12 mg', '85']]))).toEqual([]);
  });

  it('reads a table as laid out from positioned text (a PDF page or an OCR page)', () => {
    const runs: Run[] = [];
    const row = (y: number, cells: string[]) => cells.forEach((c, i) => runs.push({ text: c, x: 60 + i * 120, y, width: c.length * 5, size: 10 }));
    row(700, ['Compound', 'CDK2 IC50 (nM)', 'Ki (nM)']);
    row(686, ['12a', '45', '3.0']);
    row(672, ['12b', '<10', '0.9']);
    row(658, ['12c', '850', '66']);
    const blocks = layoutDocument([{ page: 2, width: 612, height: 792, runs }]);
    const acts = extractActivities(blocks);
    expect(acts.filter((a) => a.measure === 'IC50').map((a) => [a.page, a.label, a.target, a.relation, a.valueNm, a.source])).toEqual([
      [2, '12a', 'CDK2', '=', 45, 'table'],
      [2, '12b', 'CDK2', '<', 10, 'table'],
      [2, '12c', 'CDK2', '=', 850, 'table'],
    ]);
  });
});

describe("OCR'd tables and sentences (the chemdocs set's scanned pages, tuning half)", () => {
  const para = (text: string, bbox: Block['bbox'], page = 2): Block => ({ kind: 'paragraph', page, bbox, text, size: 11 });

  it('reads a measure glued to the word before it', () => {
    expect(columnOf('c-MetIC50')).toMatchObject({ measure: 'IC50', target: 'c-Met' });
    expect(columnOf('BRAFinhibition at 1 μM(%)')).toMatchObject({ measure: 'inhibition', target: 'BRAF', unit: '%', concentration: '1 μM' });
    expect(targetIn('In addition, compound 3 inhibited EGFRwith an IC50 of 5 nM.')).toBe('EGFR');
    expect(sentenceActivities('In adition, compound 14j inhibited EGFR with anIC50 above10000nM.').map((a) => [a.label, a.measure, a.relation, a.valueNm])).toEqual([['14j', 'IC50', '>', 10000]]);
  });

  it('reads a header whose concentration is glued to its "at" and whose IC50 has its 0 read as a letter', () => {
    expect(columnOf('BRAFinhibitionat1μM(%)')).toMatchObject({ measure: 'inhibition', target: 'BRAF', unit: '%', concentration: '1 μM' });
    expect(columnOf('BRAF IC5o (nM)')).toMatchObject({ measure: 'IC50', target: 'BRAF', unit: 'nM' });
    expect(columnOf('EC5O (μM)')).toMatchObject({ measure: 'EC50', unit: 'μM' });
    // A subscript i read as a comma or semicolon (paper15's "BRAF Kᵢ (μM)"); a comma elsewhere is no measure.
    expect(columnOf('BRAF K, (μM)')).toMatchObject({ measure: 'Ki', target: 'BRAF', unit: 'μM' });
    expect(columnOf('BRAF K; (nM)')).toMatchObject({ measure: 'Ki', target: 'BRAF', unit: 'nM' });
    expect(columnOf('Yield, (%)')).toBeNull();
    expect(columnOf('K, Na (mM)')).toBeNull();
    // A word ending in "at" before a number is no concentration of an IC50 column.
    expect(columnOf('Flat IC50 (nM)')).toMatchObject({ measure: 'IC50', concentration: null });
  });

  it('names the target of a sentence OCR glued together after it ("EGFRwithanIC50above1…")', () => {
    expect(targetIn('compound 14j inhibited EGFRwithanIC50above10000nM.')).toBe('EGFR');
    expect(sentenceActivities('compound 14j inhibited EGFRwithanIC50above10000nM.').map((a) => [a.label, a.target, a.measure, a.relation, a.valueNm])).toEqual([['14j', 'EGFR', 'IC50', '>', 10000]]);
  });

  it('reads a concentration cell whose tilde OCR read as a dash, not a % inhibition or pIC50 cell, nor a dash alone', () => {
    // paper15's last row: "~ 17" read as "-17".
    const t = table([
      ['Compound', 'JAK2 IC50 (μM)', 'JAK2 inhibition at 1 μM (%)', 'pIC50'],
      ['25e', '<0.001', '12', '6'],
      ['25f', '-17', '-5', '-1'],
      ['25g', '–', '8', '5'],
    ]);
    expect(tableActivities(t).map((a) => [a.label, a.measure, a.relation, a.value, a.unit])).toEqual([
      ['25e', 'IC50', '<', 0.001, 'μM'],
      ['25e', 'inhibition', '=', 12, '%'],
      ['25e', 'IC50', '=', 6, 'pIC50'],
      ['25f', 'IC50', '~', 17, 'μM'],
      ['25g', 'inhibition', '=', 8, '%'],
      ['25g', 'IC50', '=', 5, 'pIC50'],
    ]);
  });

  it("reads a table OCR cut in two around a label cell set apart: the rest under the first part's header", () => {
    // paper14 page 2: the third row's label "14g" read as a line between the two parts.
    const first: Block = {
      kind: 'table',
      page: 2,
      bbox: [55, 285, 485, 345],
      text: '',
      rows: [['Compound', 'BRAF IC50 (nM)', 'BRAF inhibition at 1 μM(%)'], ['14e', '4.0', '59'], ['14f', '3.3', '5'], ['', '>50000', '46']],
      size: 11,
    };
    const rest: Block = { kind: 'table', page: 2, bbox: [57, 237, 369, 280], text: '', rows: [['14h', '0.7', '22'], ['14i', '200', '55'], ['14j', '>10000', '60']], size: 11 };
    const blocks = [para('Table 2. Inhibition of BRAF by compounds 14e-14j', [53, 349, 299, 361]), first, para('14g', [57, 279, 77, 292]), rest];
    expect(extractActivities(blocks).map((a) => [a.label, a.target, a.measure, a.relation, a.value])).toEqual([
      ['14e', 'BRAF', 'IC50', '=', 4],
      ['14e', 'BRAF', 'inhibition', '=', 59],
      ['14f', 'BRAF', 'IC50', '=', 3.3],
      ['14f', 'BRAF', 'inhibition', '=', 5],
      ['14g', 'BRAF', 'IC50', '>', 50000],
      ['14g', 'BRAF', 'inhibition', '=', 46],
      ['14h', 'BRAF', 'IC50', '=', 0.7],
      ['14h', 'BRAF', 'inhibition', '=', 22],
      ['14i', 'BRAF', 'IC50', '=', 200],
      ['14i', 'BRAF', 'inhibition', '=', 55],
      ['14j', 'BRAF', 'IC50', '>', 10000],
      ['14j', 'BRAF', 'inhibition', '=', 60],
    ]);
    // A table of values far under it (another table, no header of its own) is not its rest.
    const far: Block = { ...rest, bbox: [57, 37, 369, 80] };
    expect(extractActivities([first, far]).filter((a) => a.label === '14h')).toEqual([]);
    // Nor is a label line far from the empty row its label.
    expect(extractActivities([first, para('14g', [57, 200, 77, 212])]).filter((a) => a.value === 50000).map((a) => a.label)).toEqual([null]);
  });

  it("names a sentence's compound as the tables do when OCR dropped its prime or glued a letter to it", () => {
    const t: Block = { kind: 'table', page: 1, bbox: [55, 222, 200, 301], text: '', rows: [['', 'PI3KaIC50'], ['28d', '0.00038μM'], ["28e'", '1.6μM'], ['14j', '2 μM']], size: 11 };
    const sentence = para('此外，化合物28e对c-Met的IC50为31529nM，选择性良好。', [52, 192, 324, 207], 1);
    const glued = para('In addition, compound 14jinhibited EGFR with an IC50 of 30 nM.', [52, 150, 324, 170], 1);
    expect(extractActivities([t, sentence, glued]).filter((a) => a.source === 'text').map((a) => [a.label, a.target, a.valueNm])).toEqual([
      ["28e'", 'c-Met', 31529],
      ['14j', 'EGFR', 30],
    ]);
    // A document whose tables name 28e itself keeps it.
    const both: Block = { ...t, rows: [...t.rows!, ['28e', '3 μM']] };
    expect(extractActivities([both, sentence]).filter((a) => a.source === 'text').map((a) => a.label)).toEqual(['28e']);
  });
});

describe('activity sentences', () => {
  it('reads English sentences', () => {
    expect(sentenceActivities('Compound 12a inhibited CDK2 with an IC50 = 12 nM.').map(pick)).toEqual([
      { label: '12a', target: 'CDK2', measure: 'IC50', relation: '=', value: 12, unit: 'nM', valueNm: 12, concentration: null },
    ]);
    expect(sentenceActivities('Its Ki 0.3 μM against EGFR was lower than that of 5.').map(pick)).toEqual([
      { label: null, target: 'EGFR', measure: 'Ki', relation: '=', value: 0.3, unit: 'μM', valueNm: 300, concentration: null },
    ]);
    expect(sentenceActivities('Example 23 showed a Kd of <1 nM (BRD4) and an EC50 of approximately 2.5 µM.').map((a) => [a.label, a.measure, a.relation, a.valueNm])).toEqual([
      ['23', 'Kd', '<', 1],
      ['23', 'EC50', '~', 2500],
    ]);
  });

  it('reads Chinese sentences', () => {
    expect(sentenceActivities('化合物 7b 对 CDK2 的 IC50 为 45 nM，选择性良好。').map(pick)).toEqual([
      { label: '7b', target: 'CDK2', measure: 'IC50', relation: '=', value: 45, unit: 'nM', valueNm: 45, concentration: null },
    ]);
    expect(sentenceActivities('化合物 9 在 10 μM 浓度下的抑制率为 85%。').map(pick)).toEqual([
      { label: '9', target: null, measure: 'inhibition', relation: '=', value: 85, unit: '%', valueNm: null, concentration: '10 μM' },
    ]);
  });

  it("reads an OCR'd header with the measure glued to the target and a Greek letter read as Latin", () => {
    expect(columnOf('PI3KaIC50')).toMatchObject({ measure: 'IC50', target: 'PI3Kα' });
    expect(columnOf('GSK3b Ki (nM)')).toMatchObject({ measure: 'Ki', unit: 'nM', target: 'GSK3β' });
    // Symbols that end in a capital or a digit, or are no symbol, keep their spelling.
    expect(columnOf('CDK2 IC50 (nM)')).toMatchObject({ target: 'CDK2' });
    expect(columnOf('c-Met IC50')).toMatchObject({ target: 'c-Met' });
    expect(columnOf('DELTA50')).toBeNull();
  });

  it('reads relations written as words', () => {
    const rel = (t: string) => sentenceActivities(t).map((a) => [a.label, a.target, a.relation, a.value, a.unit]);
    expect(rel('In addition, compound 3g inhibited HDAC6 with an IC50 above 1 μM.')).toEqual([['3g', 'HDAC6', '>', 1, 'μM']]);
    expect(rel('In addition, compound 3g inhibited HDAC6 with an IC50 below 20 nM.')).toEqual([['3g', 'HDAC6', '<', 20, 'nM']]);
    expect(rel('此外，化合物 12a 对 CDK2 的 IC50 小于 35 nM，选择性良好。')).toEqual([['12a', 'CDK2', '<', 35, 'nM']]);
    expect(rel('此外，化合物 12a 对 CDK2 的 IC50 大于 10 μM，选择性良好。')).toEqual([['12a', 'CDK2', '>', 10, 'μM']]);
    expect(rel('Compound 7 had an IC50 of less than 5 nM.')).toEqual([['7', null, '<', 5, 'nM']]);
    expect(rel('Compound 7 had an IC50 not less than 5 μM.')).toEqual([['7', null, '>=', 5, 'μM']]);
    // Units stay case-sensitive: millimetres are no concentration.
    expect(rel('Compound 7 had an IC50 above 5 mm.')).toEqual([]);
    // Over 1 M is a misread unit ("6722M" for "6722 nM"), not a value.
    expect(rel('Compound 25a inhibited BRAF with an IC50 of 6722M.')).toEqual([]);
    expect(tableActivities(table([['Cpd', 'IC50 (M)'], ['4b', '6722'], ['4c', '0.000002']])).map((a) => [a.label, a.valueNm])).toEqual([['4c', 2000]]);
  });

  it('reads % inhibition at a concentration', () => {
    expect(sentenceActivities('Compound 3: % inhibition at 10 μM: 85%.').map(pick)).toEqual([
      { label: '3', target: null, measure: 'inhibition', relation: '=', value: 85, unit: '%', valueNm: null, concentration: '10 μM' },
    ]);
  });

  it('reads nothing from text without a measured value', () => {
    expect(sentenceActivities('IC50 values were determined in triplicate as described in the Methods.')).toEqual([]);
    expect(sentenceActivities('The mixture was stirred at 25 °C for 12 h and the yield was 85%.')).toEqual([]);
    expect(sentenceActivities('化合物 12 的合成路线如图 2 所示。')).toEqual([]);
  });

  it('keeps the page and box of the passage', () => {
    const block: Block = { kind: 'paragraph', page: 5, bbox: [10, 20, 300, 60], text: 'Compound 4 (IC50 = 0.5 μM) was less potent.', size: 10 };
    expect(extractActivities([block]).map((a) => [a.page, a.bbox, a.label, a.valueNm, a.source])).toEqual([[5, [10, 20, 300, 60], '4', 500, 'text']]);
  });
});
