import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { makePdf, upload, waitParsed } from '../knowledge-helpers';
import { answerText, ask, readEvents, startFakeLlm } from '../answering-helpers';

// A document title is user text. In a shared or public folder it reaches everyone's
// answers, so it must never become markdown of its own (links, images) in the answer.
let server: TestServer;
let client: Client;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let llmServer: TestServer;
let llmClient: Client;
beforeAll(async () => {
  server = await startServer();
  ({ client } = await signedInUser(server));
  llm = await startFakeLlm();
  llmServer = await startServer({ LLM_BASE_URL: llm.url, LLM_API_KEY: 'test-key', LLM_MODEL: 'chat-model' });
  ({ client: llmClient } = await signedInUser(llmServer));
});
afterAll(async () => {
  await server?.close();
  await llmServer?.close();
  await llm?.close();
});

// The answer view's settings (src/widgets/channels/markdown.ts): no raw HTML, bare URLs linked.
const md = new MarkdownIt({ html: false, linkify: true });
/** A title as the answer shows it: as written, its square brackets full-width (never a citation). */
const shown = (title: string) => md.utils.escapeHtml(title.replace(/\[/g, '［').replace(/\]/g, '］'));

describe('a title written as markdown', () => {
  it('shows as text in the no-model answer: no planted link or image', async () => {
    const title = '![t](http://evil.example/pixel.png) [tl](http://evil.example/phish) **x** `y`.pdf';
    const up = await upload(client, [{ name: title, data: makePdf([['Aspirin inhibits cyclooxygenase enzymes irreversibly.']]), type: 'application/pdf' }]);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(client, docId);
    const { questionId } = await ask(client, 'What does aspirin inhibit?', { docIdList: [docId] });
    const { events } = await readEvents(client, questionId);
    const text = answerText(events);
    expect(text).toContain('cyclooxygenase');
    const html = md.render(text);
    expect(html).not.toMatch(/<img|<strong>x<\/strong>|<code>y<\/code>/);
    // Not even the bare address in it is linked: the title is text.
    expect(html).not.toMatch(/<a /);
    expect(html).toContain(shown(title));
  });
});

/** Uploads a PDF named `title`, asks about it and renders the answer as the answer view does. */
async function answerHtml(who: Client, title: string, question: string, extra: Record<string, unknown> = {}) {
  const up = await upload(who, [{ name: title, data: makePdf([['Aspirin inhibits cyclooxygenase enzymes irreversibly.']]), type: 'application/pdf' }]);
  const docId = up.body.data.name_id[0]!.docId;
  await waitParsed(who, docId);
  const { questionId } = await ask(who, question, { docIdList: [docId], tools_name: [], ...extra });
  const { events } = await readEvents(who, questionId);
  expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  return md.render(answerText(events));
}

// `![](http://127.0.0.1:8399/x) name.pdf` still became a link (a bare address is linked by
// the answer view), and the model-backed engine passed on whatever the model copied of a title.
describe('a title holding an address, a domain or an e-mail is text in every engine\'s answer', () => {
  const titles = ['![](http://127.0.0.1:8399/x) name.pdf', 'see evil.example and www.evil.example, mail a@evil.example.pdf'];

  it('the no-model answer', async () => {
    for (const title of titles) {
      const html = await answerHtml(client, title, 'What does aspirin inhibit?');
      expect(html).toContain('cyclooxygenase');
      expect(html).toContain(shown(title));
      expect(html).not.toMatch(/<a |<img/);
    }
  });

  it('the no-model deep research report', async () => {
    const html = await answerHtml(client, titles[0]!, 'What does aspirin inhibit?', { deepresearch: true });
    expect(html).toContain(shown(titles[0]!));
    expect(html).not.toMatch(/<a |<img/);
  });

  it('the model\'s answer, when the model repeats the title', async () => {
    for (const title of titles) {
      const html = await answerHtml(llmClient, title, 'What does aspirin inhibit? [echotitle]');
      expect(html).toContain(`据《${shown(title)}》所述，答案如下。`);
      expect(html).not.toMatch(/<a |<img/);
    }
  });
});
