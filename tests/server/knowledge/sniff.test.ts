import { describe, expect, it } from 'vitest';
import { contentDisposition, nextFreeName, cleanTitle } from '../../../src/server/knowledge/names';
import { contentMatches, imageKindOf, kindFromName } from '../../../src/server/knowledge/sniff';
import { splitRecord } from '../../../src/server/parsing/sdf';
import { summarisePdb } from '../../../src/server/parsing/pdb';

const b = (s: string) => Buffer.from(s, 'latin1');

describe('content sniffing', () => {
  it('knows the allowed extensions, case-insensitively', () => {
    expect(['a.PDF', 'b.jpeg', 'c.JPG', 'd.png', 'e.Sdf', 'f.pdb'].map(kindFromName)).toEqual(['pdf', 'jpeg', 'jpeg', 'png', 'sdf', 'pdb']);
    expect(['a.pdf.exe', 'b.gif', 'c', '.pdf/x', 'd.svg'].map(kindFromName)).toEqual([null, null, null, null, null]);
  });

  it('checks binary formats by magic bytes', () => {
    expect(contentMatches('pdf', b('%PDF-1.7\n'))).toBe(true);
    expect(contentMatches('pdf', b('junk before\n%PDF-1.4'))).toBe(true); // pdf.js tolerates a prefix too
    expect(contentMatches('pdf', b('<html>%PDF'))).toBe(false);
    expect(imageKindOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(imageKindOf(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('jpeg');
    expect(imageKindOf(b('GIF89a'))).toBeNull();
  });

  it('checks SDF and PDB text by structure', () => {
    const molfile = 'name\n  RDKit\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n$$$$\n';
    expect(contentMatches('sdf', b(molfile))).toBe(true);
    expect(contentMatches('sdf', b('\n  Mrv\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\n'))).toBe(true);
    expect(contentMatches('sdf', b('hello\nworld\nthis is\nnot a molfile\n'))).toBe(false);
    expect(contentMatches('sdf', Buffer.concat([b(molfile), Buffer.from([0])]))).toBe(false);
    expect(contentMatches('pdb', b('HEADER    LYASE\nATOM      1  N   MET A   1      1.0   2.0   3.0\nEND\n'))).toBe(true);
    expect(contentMatches('pdb', b('REMARK   1\nREMARK   2\n'))).toBe(false); // no coordinates or header
    expect(contentMatches('pdb', b('ATOM is a word\nthat starts lines\nof an essay\n'))).toBe(false);
  });
});

describe('file names', () => {
  it('cleans control characters and invisible formatting (issue 16 #6) but keeps the rest of the name', () => {
    expect(cleanTitle(' a\u0000b\u0007c\u202E.pdf ')).toBe('abc.pdf');
    expect(cleanTitle('阿司匹林\u200b合成.pdf')).toBe('阿司匹林合成.pdf');
    expect(cleanTitle('../x/../y.pdf')).toBe('../x/../y.pdf');
  });

  it('numbers taken names _1, _2 (SPEC §5)', () => {
    const taken = new Set(['gel.png', 'gel_1.png']);
    expect(nextFreeName('gel.png', (n) => taken.has(n))).toBe('gel_2.png');
    expect(nextFreeName('noext', (n) => n === 'noext')).toBe('noext_1');
  });

  it('builds an RFC 6266 attachment header with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('报告 (1).pdf')).toBe(`attachment; filename="__ (1).pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%281%29.pdf`);
    expect(contentDisposition('a"b\\c/d;e%f.pdf')).toBe(`attachment; filename="a_b_c_d_e_f.pdf"; filename*=UTF-8''a%22b%5Cc%2Fd%3Be%25f.pdf`);
  });
});

describe('molecule and structure files', () => {
  it('splits an SDF record into its molblock and data fields', () => {
    const rec = splitRecord('x\n  p\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n> <NAME> (1)\nAspirin\n\n>  <MW>\n180.16\nsecond line\n\n');
    expect(rec?.properties).toEqual({ NAME: 'Aspirin', MW: '180.16\nsecond line' });
    expect(rec?.molfile.endsWith('M  END\n')).toBe(true);
    expect(splitRecord('no end here')).toBeNull();
  });

  it('summarises chains, residues and ligands, leaving out water and keeping the first model only', () => {
    const atom = (rec: string, n: number, res: string, chain: string, seq: number) =>
      `${rec.padEnd(6)}${String(n).padStart(5)}  CA  ${res.padStart(3)} ${chain}${String(seq).padStart(4)}      0.000   0.000   0.000  1.00  0.00           C`;
    const text = [
      'TITLE     TEST STRUCTURE',
      'MODEL        1',
      atom('ATOM', 1, 'GLY', 'A', 1),
      atom('ATOM', 2, 'ALA', 'A', 2),
      atom('ATOM', 3, 'SER', 'B', 1),
      atom('HETATM', 4, 'HOH', 'A', 100),
      atom('HETATM', 5, 'ATP', 'A', 200),
      atom('HETATM', 6, 'ATP', 'A', 200),
      'ENDMDL',
      'MODEL        2',
      atom('ATOM', 1, 'GLY', 'A', 1),
      'ENDMDL',
    ].join('\n');
    const s = summarisePdb(text);
    expect(s.title).toBe('TEST STRUCTURE');
    expect(s.models).toBe(2);
    expect(s.chains).toEqual([{ id: 'A', residues: 2, atoms: 2, sequence: 'GA' }, { id: 'B', residues: 1, atoms: 1, sequence: 'S' }]);
    expect(s.ligands).toEqual([{ name: 'ATP', fullName: null, chain: 'A', resSeq: '200', atoms: 2 }]);
  });
});
