import { describe, expect, it } from 'vitest';
import { citationPath, looksLikeSmiles } from '../../../src/widgets/channels/markdown';

const citation = { n: 2, docId: 'd1', title: 'a.pdf', page: 4, bbox: [1, 2, 3, 4] as [number, number, number, number], text: '' };

describe('answer markup helpers', () => {
  it('tells SMILES from words and numbers', () => {
    for (const s of ['CCO', 'c1ccccc1', 'CC(=O)Oc1ccccc1C(=O)O', '[Na+].[Cl-]', 'C/C=C/C', 'N#N']) expect(looksLikeSmiles(s), s).toBe(true);
    for (const s of ['npm', 'Python', '123', 'x', 'hello world', 'const a = 1']) expect(looksLikeSmiles(s), s).toBe(false);
  });

  it('links a citation to the viewer at its page and box', () => {
    const url = new URL(citationPath(citation), 'http://x');
    expect(url.pathname).toBe('/pdf_viewer');
    expect(Object.fromEntries(url.searchParams)).toEqual({ docId: 'd1', page: '4', bbox: '1,2,3,4' });
    expect(citationPath({ ...citation, page: null, bbox: null })).toBe('/pdf_viewer?docId=d1');
  });
});
