import { describe, expect, it } from 'vitest';
import { imageUnit, labelCandidates, labelNear, labelRows, labelsNear, primedLabel } from '../../../../src/server/parsing/chemistry/labels';
import { labelStructures } from '../../../../src/server/parsing/chemistry/stage';
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

  it('finds the labels of a grid of drawings that layout read as one table with their atom labels', () => {
    // paper02 of the chemdocs set: three drawings in a row; their atom labels (N, NH, CH3, H2N) and the
    // labels under them are text, and layout reads them as one table of three rows.
    const grid: Block = {
      kind: 'table',
      page: 1,
      bbox: [103, 507, 508, 551],
      text: 'N | NH | \nCH3 | H2N | \ncompound 3a | compound 3b | compound 3c',
      rows: [['N', 'NH', ''], ['CH3', 'H2N', ''], ['compound 3a', 'compound 3b', 'compound 3c']],
      size: 9,
    };
    const cut = labelRows(grid);
    expect(cut.map((b) => b.text)).toEqual(['compound 3a', 'compound 3b', 'compound 3c']);
    const drawings: Box[] = [[64, 526, 212, 642], [232, 526, 380, 642], [400, 526, 548, 642]];
    expect(drawings.map((d) => labelNear(labelCandidates([grid]), d))).toEqual(['3a', '3b', '3c']);
  });

  it('finds labels layout joined to the atom labels before them in a cell of such a grid ("S O化合物20b")', () => {
    // paper18 of the chemdocs set: the labels sit right of their drawings, on the line of atom labels.
    const grid: Block = {
      kind: 'table',
      page: 1,
      bbox: [54, 600, 554, 650],
      text: '',
      rows: [
        ['HO', 'O', '', '', '', '', ''],
        ['', '', '', '', 'O', 'N', ''],
        ['', '', '化合物20a', 'O', 'S O化合物20b', '', 'OH化合物20c'],
      ],
      columns: [[54, 100], [100, 140], [156, 214], [214, 300], [300, 376], [376, 450], [450, 540]],
      size: 9,
    };
    const cut = labelRows(grid);
    expect(cut.map((b) => b.text)).toEqual(['化合物20a', '化合物20b', '化合物20c']);
    // A glued label starts after the atom labels before it.
    expect(cut[1]!.bbox[0]).toBeGreaterThan(300);
    const drawings: Box[] = [[62, 594, 152, 657], [224, 607, 310, 645], [387, 604, 474, 651]];
    expect(labelsNear(labelCandidates([grid]), drawings)).toEqual(['20a', '20b', '20c']);
    // Words before a label that are no atom labels are text, not a row of labels.
    const prose: Block = { ...grid, rows: [['', '', '', 'O', 'see 化合物20b', '', '']] };
    expect(labelRows(prose)).toEqual([prose]);
  });

  it('does not take a lone subscript digit or a table of values for labels', () => {
    const subscript: Block = { kind: 'table', page: 1, bbox: [100, 500, 300, 540], text: 'N | O\n | 3', rows: [['N', 'O'], ['', '3']], size: 9 };
    expect(labelRows(subscript)).toEqual([subscript]);
    const values: Block = { kind: 'table', page: 1, bbox: [50, 300, 550, 400], text: '', rows: [['Compound', 'IC50 (nM)'], ['3a', '12'], ['3b', '40']], size: 9 };
    expect(labelRows(values)).toEqual([values]);
    // Two bare labels in a row are a row of labels.
    const bare: Block = { kind: 'table', page: 1, bbox: [100, 500, 300, 540], text: '', rows: [['OH', 'Cl'], ['12a', '12b']], size: 9 };
    expect(labelRows(bare).map((b) => [b.text, b.bbox])).toEqual([
      ['12a', [100, 500, 200, 520]],
      ['12b', [200, 500, 300, 520]],
    ]);
  });

  it('gives each drawing its label from one line of labels set beside a row of drawings', () => {
    // paper11 of the chemdocs set: each label right of its drawing; layout joins them with one space.
    const line = (text: string, bbox: Box): Block => ({ kind: 'paragraph', page: 1, bbox, text, size: 10 });
    const top = [line('化合物 18a 化合物 18b 化合物 18c', [156, 621, 530, 632])];
    expect(([[58, 562, 154, 692], [220, 562, 317, 692], [383, 562, 479, 692]] as Box[]).map((d) => labelNear(top, d))).toEqual(['18a', '18b', '18c']);
    const bottom = [line('化合物 18d 化合物 18e′', [156, 471, 370, 482])];
    expect(([[58, 412, 154, 542], [220, 412, 317, 542]] as Box[]).map((d) => labelNear(bottom, d))).toEqual(['18d', "18e'"]);
  });

  it('places a label of a grid by its table column when layout gives the columns, and beside its drawing', () => {
    // paper18 of the chemdocs set: the row holds an atom label (Cl) beside the compound labels, and
    // the columns are uneven; the labels sit right of their drawings.
    const grid: Block = {
      kind: 'table',
      page: 1,
      bbox: [60, 600, 540, 640],
      text: '',
      rows: [['O', '', 'HO', ''], ['', '化合物 20a', 'Cl', '化合物 20b']],
      columns: [[60, 120], [156, 214], [260, 300], [318, 376]],
      size: 10,
    };
    expect(labelRows(grid).map((b) => [b.text, b.bbox[0], b.bbox[2]])).toEqual([
      ['化合物 20a', 156, 214],
      ['化合物 20b', 318, 376],
    ]);
    const drawings: Box[] = [[58, 560, 154, 690], [220, 560, 316, 690]];
    expect(drawings.map((d) => labelNear(labelCandidates([grid]), d))).toEqual(['20a', '20b']);
  });

  it('reads the labels of a line mixed with the atom labels of the drawings around it', () => {
    // paper18 page 2 of the chemdocs set, as layout joined the runs (a glued "O化合物" included).
    const line: Block = { kind: 'paragraph', page: 2, bbox: [156, 655, 532, 667], text: 'O化合物 20f O 化合物 20g H3C O O 化合物 20h', size: 10 };
    const drawings: Box[] = [[58, 596, 154, 726], [220, 596, 317, 726], [383, 596, 479, 726]];
    expect(drawings.map((d) => labelNear([line], d))).toEqual(['20f', '20g', '20h']);
    // A line with a longer word is a sentence, not a line of labels.
    const sentence: Block = { ...line, text: 'O 化合物 20f was prepared' };
    expect(labelNear([sentence], drawings[0]!)).toBeNull();
  });
});

describe("labelsNear: the labels of a page's drawings read together", () => {
  // paper12 of the chemdocs set (tuning half): the drawings' boxes are their ink, flatter than the
  // room each was given, so the line of labels under the row is further than labelNear reaches.
  const line = block('化合物 29a 化合物 29b 化合物 29c', [110, 557, 485, 568]);
  const below = block('化合物 29d 化合物 29e′', [110, 407, 324, 418]);
  const flat: Box = [89, 610, 189, 655];
  const row: Box[] = [flat, [250, 588, 335, 679], [418, 591, 505, 674]];
  const second: Box[] = [[84, 438, 186, 529], [244, 442, 350, 526]];

  it('gives a flat drawing the label under it that no other drawing takes', () => {
    expect(labelNear([line, below], flat)).toBeNull();
    expect(labelsNear([line, below], [...row, ...second])).toEqual(['29a', '29b', '29c', '29d', "29e'"]);
  });

  it('keeps a label a drawing already has, and gives no label twice', () => {
    expect(labelsNear([line, below], [...row, ...second], 1, ['29a'])).toEqual(['29a', '29b', '29c', '29d', "29e'"]);
    // A flat drawing the label is too far from for labelNear takes it loosely, unless another drawing has it.
    const far: Box = [89, 615, 189, 640];
    expect(labelNear([line], far)).toBeNull();
    expect(labelsNear([line], [far])).toEqual(['29a']);
    expect(labelsNear([line], [[89, 700, 189, 760], far], 1, ['29a'])).toEqual(['29a', null]);
  });

  it('a label far off goes to the nearer of two unlabelled drawings', () => {
    const lone = block('化合物 5', [150, 480, 200, 492]);
    expect(labelsNear([lone], [[100, 540, 250, 560], [120, 700, 240, 740]])).toEqual(['5', null]);
  });

  it('a drawing with no label near, loosely, stays without one', () => {
    expect(labelsNear([block('化合物 5', [450, 100, 500, 112])], [[100, 540, 250, 560]])).toEqual([null]);
  });
});

describe('primes OCR dropped from a label', () => {
  it("reads a drawing's label as the primed label the rest of the document uses", () => {
    expect(primedLabel('28i', new Map([["28i'", 1]]))).toBe("28i'");
    expect(primedLabel('28i', new Map([["28i''", 1]]))).toBe("28i''");
  });

  it('keeps the label when the document also names it without the prime, or another drawing has the primed one', () => {
    expect(primedLabel('28i', new Map([["28i'", 1], ['28i', 1]]))).toBe('28i');
    expect(primedLabel('28i', new Map([["28i'", 1]]), new Set(["28i'"]))).toBe('28i');
    expect(primedLabel('28i', new Map([["28i'", 1], ["28i''", 1]]))).toBe('28i');
    expect(primedLabel('28', new Map([["28i'", 1]]))).toBe('28');
  });

  it("labels a scanned page's drawings with the primes its table keeps", () => {
    // paper06 page 2 of the chemdocs set (tuning half), its OCR'd lines: the drawing's label lost
    // its prime ("化合物28i"), the table's row kept it ("28i'").
    const lines = [
      block('化合物28h', [499, 603, 551, 616], { size: 11 }),
      block('化合物28i', [162, 455, 214, 468], { size: 11 }),
      block('28h', [55, 288, 75, 301], { size: 11 }),
      block("28i'", [55, 272, 74, 285], { size: 11 }),
    ];
    const read = [
      { page: 1, bbox: [409, 584, 488, 635] as Box, label: null },
      { page: 1, bbox: [72, 437, 146, 484] as Box, label: null },
    ];
    expect(labelStructures(read, lines, 1).map((s) => s.label)).toEqual(['28h', "28i'"]);
    // With the table naming 28i as well, the drawing is 28i.
    expect(labelStructures(read, [...lines, block('28i', [55, 250, 74, 262])], 1).map((s) => s.label)).toEqual(['28h', '28i']);
  });
});

describe('labels of an image, read from its OCR lines (its pixels, not points)', () => {
  // The bench's scanned PNG (tuning half, paper16): a 200 dpi page, OCR'd lines in its pixels
  // (origin bottom-left), a drawing read by OSRA (its ink's box) and the label line under it.
  const lines = [
    block('化合物22c', [1208, 1536, 1355, 1579], { size: 32 }),
    block('化合物22f', [1205, 1121, 1352, 1160], { size: 32 }),
    block('此外，化合物22e对CDK2的IC50为0.00079μM，选择性良好。', [139, 623, 917, 673], { size: 32 }),
    block('130', [307, 1236, 324, 1247], { size: 12 }),
    block('化合物22d', [300, 1132, 451, 1171], { size: 32 }),
  ];
  const flat: Box = [1143, 1693, 1424, 1814];

  it('measures gaps in points: a label 114 px (41 pt at 200 dpi) under a flat drawing is its label', () => {
    // As if it were points, the gap is beyond reach of a drawing 121 units tall.
    expect(labelNear(lines, flat)).toBeNull();
    const unit = imageUnit(lines);
    expect(unit).toBeGreaterThan(2);
    expect(unit).toBeLessThan(4);
    expect(labelNear(lines, flat, unit)).toBe('22c');
    expect(labelNear(lines, [1168, 1268, 1408, 1413], unit)).toBe('22f');
  });

  it('text inside the drawing (an atom label read as a number) is not its label', () => {
    expect(labelNear(lines, [302, 1217, 451, 1473], imageUnit(lines))).toBe('22d');
  });

  it('an image without text is measured as points', () => {
    expect(imageUnit([])).toBe(1);
  });
});
