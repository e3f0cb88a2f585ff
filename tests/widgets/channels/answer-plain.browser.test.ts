import '../../../src/widgets/channels/channels.element';
import { expect, failOnConsoleErrors, mount, part, waitFor } from '../harness';
import { fakeCsai, installFakes, ok } from '../ask/fake-csai';

// A file of its own: the markdown chunk must not have been loaded in this page yet, as on a
// user's first answer.
describe('<csai-channels> before the markdown chunk has loaded', () => {
  failOnConsoleErrors();

  it('shows the answer as plain text at once, then rendered, instead of an empty box', async () => {
    document.cookie = 'XSRF-TOKEN=test-token; path=/';
    const restoreFakes = installFakes();
    const answer = '**结论**：阿司匹林不可逆地抑制 COX。\n\n- 第一点';
    const question = {
      question_id: 'q1', channel_id: 'c1', question: '阿司匹林的作用机制？', status: 'done', answer, thinking: '', steps: [], citations: [], error: null,
      effect: null, effect_comment: null, docIdList: [], docIdListKnowledge: [], kb_ids: [], if_search_online: false, search_type: 'all', if_thinking: true,
      deepresearch: false, tools_name: [], engine: 'local', last_event_id: 3, created_at: '', finished_at: '2026-11-26T00:00:00Z',
    };
    const fake = fakeCsai([
      ['GET', '/channel', () => ok({ items: [{ id: 'c1', name: '阿司匹林', question_count: 1, created_at: '', updated_at: '' }], total: 1, page: 1, size: 20 })],
      ['GET', '/channel/questions/c1', () => ok({ items: [question], total: 1, page: 1, size: 100 })],
      ['GET', /^\/channel\/channel_docs\//, () => ok([])],
    ]);
    const box = mount('<csai-channels channel-id="c1"></csai-channels>');
    const el = box.querySelector('csai-channels')!;
    try {
      // Every state the answer box goes through, from its first appearance.
      const seen: Array<{ plain: boolean; text: string }> = [];
      const observer = new MutationObserver(() => {
        const body = part(el, 'answer');
        if (body) seen.push({ plain: body.hasAttribute('data-plain'), text: body.textContent ?? '' });
      });
      await waitFor(() => el.shadowRoot, 'the shadow root');
      observer.observe(el.shadowRoot!, { subtree: true, childList: true, attributes: true, characterData: true });
      await waitFor(() => part(el, 'answer')?.querySelector('strong'), 'the rendered answer');
      observer.disconnect();
      // Before rendering: the words of the answer, as written.
      expect(seen.find((s) => s.plain)?.text).to.equal(answer);
      // Rendered: markdown, not the raw marks.
      expect(part(el, 'answer')!.hasAttribute('data-plain')).to.equal(false);
      expect(part(el, 'answer')!.textContent).not.to.contain('**');
    } finally {
      box.remove();
      fake.restore();
      restoreFakes();
    }
  });
});
