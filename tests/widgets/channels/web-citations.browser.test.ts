import '../../../src/widgets/channels/channels.element';
import { expect, failOnConsoleErrors, part, waitFor } from '../harness';
import { channelRecord, fakeCsaiPage, questionRecord } from '../ask/fake-csai';

// Online results cited like document passages, shown with the site's name, opening the page in a new tab.
const question = questionRecord({
  answer: '文档说 [1]，网页说 [2]。',
  citations: [
    { n: 1, docId: 'd1', title: '药理学.pdf', page: 3, bbox: [10, 20, 30, 40], text: '阿司匹林不可逆地抑制 COX' },
    { n: 2, url: 'https://www.example.org/aspirin', title: 'Aspirin mechanism', site: 'example.org', snippet: 'Aspirin acetylates COX-1.', fetchedAt: '2026-11-25T10:00:00.000Z', kind: 'web' },
  ],
  if_search_online: true, search_type: 'web', if_thinking: false, last_event_id: 5, created_at: '2026-01-01T00:00:00Z', finished_at: '2026-01-01T00:00:01Z',
});

describe('<csai-channels> online citations', () => {
  failOnConsoleErrors();
  const page = fakeCsaiPage();

  it('a web citation opens the page in a new tab without referrer, and the answer lists it with its site', async () => {
    const el = await page.conversation([question], { channels: [channelRecord('c1', '阿司匹林')] });
    const chip = await waitFor(() => el.shadowRoot!.querySelector<HTMLAnchorElement>('[part~="answer"] a[href="https://www.example.org/aspirin"]'), 'the web chip');
    expect(chip.textContent).to.equal('[2]');
    expect(chip.target).to.equal('_blank');
    expect(chip.rel).to.equal('noopener noreferrer');
    expect(chip.title).to.equal('example.org：Aspirin mechanism');
    // The document citation still opens the viewer.
    expect(el.shadowRoot!.querySelector('a[data-cite="1"]')!.getAttribute('href')).to.contain('/pdf_viewer?docId=d1');
    const sources = part(el, 'web-sources')!;
    expect(sources.textContent).to.contain('Aspirin mechanism');
    expect(part(el, 'web-source-site')!.textContent).to.contain('example.org');
    const link = sources.querySelector('a')!;
    expect([link.href, link.target, link.rel]).to.deep.equal(['https://www.example.org/aspirin', '_blank', 'noopener noreferrer']);
  });
});
