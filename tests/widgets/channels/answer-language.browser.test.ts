import '../../../src/widgets/channels/channels.element';
import '../../../src/widgets/molecule/molecule.element';
import { expect, failOnConsoleErrors, waitFor } from '../harness';
import { channelRecord, conversationRoutes, fakeCsaiPage, ok, questionRecord } from '../ask/fake-csai';

// Issue 32 §2: the structures drawn inside an answer (and under its question) speak the language of
// <csai-channels>: an English page has no "化学结构" or "复制" left from a drawing.
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
const question = questionRecord({
  question: 'Draw CC(=O)Oc1ccccc1C(=O)O', answer: '**Structures in the question**\n\n- canonical SMILES: `CC(=O)Oc1ccccc1C(=O)O`', if_thinking: false,
  last_event_id: 3, created_at: '2026-01-01T00:00:00Z', finished_at: '2026-01-01T00:00:01Z',
});

describe('<csai-channels lang="en"> drawings in an answer', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();

  for (const lang of ['en', 'zh'] as const) {
    it(`draws the answer's and the question's structures in ${lang}`, async () => {
      page.serve([
        ...conversationRoutes([question], { channels: [channelRecord('c1', 'Aspirin')] }),
        ['*', '/mol/draw_svg', () => ok({ svg: SVG, canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O', formula: 'C9H8O4', num_atoms: 13, highlighted_atoms: [], highlighted_bonds: [] })],
      ]);
      const el = page.mount(`<csai-channels channel-id="c1" lang="${lang}"></csai-channels>`);
      const drawings = await waitFor(() => {
        const found = [...el.shadowRoot!.querySelectorAll('[part~="answer"] csai-molecule, [part~="question-structures"] csai-molecule')];
        return found.length >= 2 ? found : null;
      }, 'the drawings');
      for (const d of drawings) expect(d.getAttribute('lang')).to.equal(lang);
      const label = await waitFor(() => drawings[0]!.shadowRoot?.querySelector('[part~="drawing"]')?.getAttribute('aria-label'), 'the drawing label');
      if (lang === 'en') expect(label).not.to.match(/\p{Script=Han}/u);
      else expect(label).to.contain('化学结构');
    });
  }
});
