import { describe, expect, it } from 'vitest';
import type { IntelligenceSearchOutput } from '../../../src/contract/molecules';
import { activityQuestion } from '../../../src/server/chemdocs/activity-answer';
import { toolCitations } from '../../../src/server/answering/tool-citations';
import type { Citable } from '../../../src/server/answering/engine';

describe('activity questions', () => {
  it('reads target, measure, relation, value and functional group from Chinese and English questions', () => {
    expect(activityQuestion('哪些化合物对 CDK2 的 IC50 小于 100 nM 且含磺酰胺')).toMatchObject({
      activity: { target: 'CDK2', measure: 'IC50', relation: '<', value: 100 },
      group: { name: '磺酰胺', smarts: '[#16X4](=O)(=O)[#7]' },
    });
    expect(activityQuestion('Which compounds have an EGFR Ki below 0.5 μM?')).toMatchObject({ activity: { target: 'EGFR', measure: 'Ki', relation: '<', value: 500 }, group: null });
    expect(activityQuestion('对 BRD4 抑制率不低于 80% 的化合物')?.activity).toMatchObject({ measure: 'inhibition', relation: '>=', value: 80 });
    expect(activityQuestion('阿司匹林的ADMET性质')).toBeNull();
  });
});

describe("a model's intelligence_search result", () => {
  it('numbers each compound record and table row after the sources already citable', () => {
    const data: IntelligenceSearchOutput = {
      query: 'q',
      documents: 2,
      passages: [],
      activity: { target: 'CDK2', measure: 'IC50', relation: '<', value: 100 },
      molecules: {
        mode: 'substructure',
        query: { form: 'smarts', text: '[#16X4](=O)(=O)[#7]', parent: null },
        truncated: false,
        searched: 4,
        took_ms: 1,
        hits: [{
          molecule_id: 1, doc_id: 'sdf', doc_title: 'compounds.sdf', doc_type: 5, source: 'sdf', page: null, name: '12a', mol_key: 'sdf:1', smiles: 'Nc1ccc(S(N)(=O)=O)cc1', inchikey: '', score: null, label: '12a',
          activities: [{ id: 7, doc_id: 'pdf', doc_title: 'paper.pdf', page: 3, bbox: [50, 300, 550, 316], label: '12a', target: 'CDK2', measure: 'IC50', relation: '=', value: 45, unit: 'nM', value_nm: 45, concentration: null, source: 'table', text: 'Compound | CDK2 IC50 (nM)\n12a | 45', matches: true }],
        }],
      },
    };
    const added: Citable[] = [];
    const cited = toolCitations([{ n: 1, docId: 'x', title: 'x', page: 1, bbox: null, text: 'x', score: 1 }], (more) => added.push(...more));
    const result = cited.cite('intelligence_search', { ok: true, content: '检索结果', data });
    expect(added.map((c) => ('docId' in c ? [c.n, c.docId, c.page, c.bbox] : null))).toEqual([
      [2, 'sdf', null, null],
      [3, 'pdf', 3, [50, 300, 550, 316]],
    ]);
    expect(result.content).toContain('化合物 12a');
    expect(result.content).toMatch(/CDK2 IC50 = 45 nM.*\[3\]/);
    expect(result.content).toContain('[2]');
  });
});
