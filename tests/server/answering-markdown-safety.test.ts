import MarkdownIt from 'markdown-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from './helpers';
import { makePdf, upload, waitParsed } from './knowledge-helpers';
import { answerText, ask, readEvents } from './answering-helpers';

// Issue 16 #4: a document title is user text. In a shared or public folder it reaches everyone's
// answers, so it must never become markdown of its own (links, images) in the answer.
let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startServer();
  ({ client } = await signedInUser(server));
});
afterAll(() => server.close());

// The answer view's settings (src/widgets/channels/markdown.ts): no raw HTML, bare URLs linked.
const md = new MarkdownIt({ html: false, linkify: true });

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
    // A bare address may be linked as itself (as in any passage), but no link hides behind other words.
    const links = [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)];
    for (const [, href, shown] of links) expect(shown).toBe(href);
    expect(html).not.toContain('>tl<');
  });
});
