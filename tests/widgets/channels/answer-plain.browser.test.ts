import '../../../src/widgets/channels/channels.element';
import { expect, failOnConsoleErrors, part, waitFor } from '../harness';
import { channelRecord, conversationRoutes, fakeCsaiPage, questionRecord } from '../ask/fake-csai';

// A file of its own: the markdown chunk must not have been loaded in this page yet, as on a
// user's first answer.
describe('<csai-channels> before the markdown chunk has loaded', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();

  it('shows the answer as plain text at once, then rendered, instead of an empty box', async () => {
    const answer = '**结论**：阿司匹林不可逆地抑制 COX。\n\n- 第一点';
    const question = questionRecord({ answer, last_event_id: 3, finished_at: '2026-11-26T00:00:00Z' });
    page.serve(conversationRoutes([question], { channels: [channelRecord('c1', '阿司匹林')] }));
    const el = page.mount('<csai-channels channel-id="c1"></csai-channels>');
    // Every state the answer box goes through, from its first appearance.
    const seen: Array<{ plain: boolean; text: string }> = [];
    const observer = new MutationObserver(() => {
      const body = part(el, 'answer');
      if (body) seen.push({ plain: body.hasAttribute('data-plain'), text: body.textContent ?? '' });
    });
    try {
      await waitFor(() => el.shadowRoot, 'the shadow root');
      observer.observe(el.shadowRoot!, { subtree: true, childList: true, attributes: true, characterData: true });
      await waitFor(() => part(el, 'answer')?.querySelector('strong'), 'the rendered answer');
    } finally {
      observer.disconnect();
    }
    // Before rendering: the words of the answer, as written.
    expect(seen.find((s) => s.plain)?.text).to.equal(answer);
    // Rendered: markdown, not the raw marks.
    expect(part(el, 'answer')!.hasAttribute('data-plain')).to.equal(false);
    expect(part(el, 'answer')!.textContent).not.to.contain('**');
  });
});
