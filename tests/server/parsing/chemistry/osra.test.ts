import { describe, expect, it } from 'vitest';
import { parseOsraSdf } from '../../../../src/server/parsing/chemistry/osra';

// What `osra -f sdf -p -c -b` prints: a molfile per structure with its confidence, box and bond length as data items.
const record = (atoms: string, confidence: string, box: string, bond = '') => `
 OpenBabel11302619152D

  2  1  0  0  0  0  0  0  0  0999 V2000
${atoms}
  1  2  1  0  0  0  0
M  END
>  <Confidence_estimate>
${confidence}

>  <Surrounding_box>
${box}

>  <Average_bond_length>
${bond}

$$$$
`;
const atoms = ['    0.0000   -1.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0', '    1.3000   -0.2500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0'].join('\n');

describe('parseOsraSdf', () => {
  it('reads each structure: its molfile, its confidence, its box and its bond length in pixels', () => {
    const hits = parseOsraSdf(record(atoms, '0.984488', '64x113-448x393', '55.3072') + record(atoms, '-1.5', '500x10-620x90', 'nan').slice(1));
    expect(hits.map((h) => [h.score, h.box, h.bondPx])).toEqual([
      [0.984488, [64, 113, 448, 393], 55.3072],
      [-1.5, [500, 10, 620, 90], 0],
    ]);
    const lines = hits[0]!.molfile.split('\n');
    expect(lines[3]).toMatch(/V2000$/);
    expect(lines.at(-1)).toBe('M  END');
    expect(lines).toHaveLength(8);
  });

  it('takes a structure without its data items as unsure and unplaced, and skips what is no molfile', () => {
    const bare = record(atoms, '', '').replace(/>  <[\s\S]*$/, '$$$$\n');
    expect(parseOsraSdf(bare).map((h) => [h.score, h.box, h.bondPx])).toEqual([[0, null, 0]]);
    expect(parseOsraSdf('')).toEqual([]);
    expect(parseOsraSdf('Segmentation fault\n')).toEqual([]);
  });
});
