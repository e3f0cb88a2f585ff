// The page crawl card and the literature hit list (issue 15 §2, §3): what a reader sees, links out in
// a new tab without referrer, and the save-to-knowledge-base control against a faked API.
import type { ComponentType, ReactNode } from 'react';
import { toolCards, type ToolCardProps } from '../../../src/widgets/channels/tool-cards';
import { LiteratureHits } from '../../../src/widgets/channels/tool-cards/LiteratureHits';
import type { LiteratureHit } from '../../../src/contract/literature';
import { untranslated } from '../untranslated';
import { expect, failOnConsoleErrors, waitFor } from '../harness';
import { fail, ok, ping, type RouteHandler } from '../fake-api';
import { partPage } from '../render-in-host';

const page = {
  url: 'https://pharma.example.com/aspirin',
  title: 'Aspirin',
  site: 'Pharma Wiki',
  snippet: 'Acetylsalicylic acid irreversibly inhibits cyclooxygenase.',
  fetchedAt: '2026-11-25T16:00:00.000Z',
  format: 'html',
  page_count: null,
  markdown: '# Aspirin',
  truncated: false,
};

const paper: LiteratureHit = {
  url: 'https://pubmed.ncbi.nlm.nih.gov/31000001/',
  title: 'Aspirin and cyclooxygenase acetylation',
  site: 'PubMed',
  snippet: 'Aspirin acetylates COX-1.',
  kind: 'literature',
  source: 'pubmed',
  authors: ['Jane Smith', 'Li Wang', 'A Third', 'B Fourth'],
  journal: 'Journal of medicinal chemistry',
  year: 2020,
  doi: '10.1021/acs.jmedchem.0c00001',
  pmid: '31000001',
  pmcid: 'PMC7000001',
  abstract: 'BACKGROUND: Aspirin acetylates COX-1.',
  pdfUrl: 'https://europepmc.org/articles/PMC7000001?pdf=render',
};

describe('online research cards', () => {
  failOnConsoleErrors();
  let posts: Array<{ url: string; body: unknown }> = [];
  let saveAnswer: () => Response = () => ok({ name: 'Aspirin.md', docId: 'd1', url: page.url, fetchedAt: page.fetchedAt });
  beforeEach(() => {
    posts = [];
  });
  const folder = (id: string, name: string) => ({ id, name, isShared: false, is_public: false, doc_count: 0, owner_id: 'u', owner_name: 'U', is_owner: true, created_at: '', updated_at: '' });
  const save: RouteHandler = (req) => {
    posts.push({ url: req.url, body: req.body });
    return saveAnswer();
  };
  const view = partPage([
    ['GET', '/', () => ping()],
    ['GET', '/knowledge_base/folder', () => ok({ items: [folder('k1', '文献库'), folder('k2', '网页资料')], total: 2, page: 1, size: 100 })],
    ['POST', '/crawl/save', save],
    ['POST', '/literature/save_pdf', save],
  ]);
  const mount = (children: ReactNode, lang: 'zh' | 'en' = 'zh') => view.render(children, lang);
  async function crawlCard(props: Omit<ToolCardProps, 'name'>, lang: 'zh' | 'en' = 'zh') {
    const Card: ComponentType<ToolCardProps> = await toolCards.page_crawl!();
    return mount(<Card name="page_crawl" {...props} />, lang);
  }
  const button = (shadow: ShadowRoot, text: string) => [...shadow.querySelectorAll('button')].find((b) => b.textContent === text);

  it('shows the title linking out in a new tab, the site, the fetch time and the excerpt', async () => {
    const shadow = await crawlCard({ ok: true, content: '', data: page });
    const link = await waitFor(() => shadow.querySelector('a'), 'the title link');
    expect(link.textContent).to.equal('Aspirin');
    expect(link.getAttribute('href')).to.equal(page.url);
    expect(link.getAttribute('target')).to.equal('_blank');
    expect(link.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(shadow.textContent).to.contain('Pharma Wiki');
    expect(shadow.textContent).to.contain('抓取于');
    expect(shadow.textContent).to.contain('Acetylsalicylic acid irreversibly inhibits cyclooxygenase.');
  });

  // Issue 32 §2: the card's own words in the language shown; the page's title, site and excerpt are data.
  for (const lang of ['zh', 'en'] as const) {
    it(`the page card has no untranslated words in ${lang === 'zh' ? 'Chinese' : 'English'}`, async () => {
      const shadow = await crawlCard({ ok: true, content: '', data: page }, lang);
      await waitFor(() => shadow.querySelector('a') && (lang === 'zh' || !/[\u4e00-\u9fff]/.test(shadow.textContent ?? '')), 'the card');
      expect(untranslated(shadow, lang, 'a, [data-field], [part~="excerpt"]')).to.deep.equal([]);
    });
  }

  it('saves the page into the chosen knowledge base and says so', async () => {
    const shadow = await crawlCard({ ok: true, content: '', data: page });
    (await waitFor(() => button(shadow, '保存到知识库'), 'the save button')).click();
    const select = await waitFor(() => shadow.querySelector('select'), 'the folder choice');
    select.value = 'k2';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => (shadow.querySelector('select')?.value === 'k2' ? true : null), 'k2 chosen');
    button(shadow, '保存')!.click();
    await waitFor(() => (shadow.textContent?.includes('已保存到知识库：Aspirin.md') ? true : null), 'the saved message');
    expect(posts).to.deep.equal([{ url: '/api/v1/crawl/save', body: { url: page.url, folder_id: 'k2' } }]);
  });

  it('shows the server refusal when saving fails', async () => {
    saveAnswer = () => fail(403, '该网站的 robots.txt 不允许抓取此网页：https://pharma.example.com/aspirin', 'crawl_robots_disallowed');
    const shadow = await crawlCard({ ok: true, content: '', data: page });
    (await waitFor(() => button(shadow, '保存到知识库'), 'the save button')).click();
    await waitFor(() => shadow.querySelector('select'), 'the folder choice');
    button(shadow, '保存')!.click();
    const alert = await waitFor(() => shadow.querySelector('[role="alert"]'), 'the failure');
    expect(alert.textContent).to.contain('robots.txt 不允许抓取此网页');
  });

  it('a failed crawl shows its message instead of a card', async () => {
    const shadow = await crawlCard({ ok: false, content: '只能抓取 http 或 https 网址，不支持 file 协议', data: undefined });
    await waitFor(() => (shadow.textContent?.includes('不支持 file 协议') ? true : null), 'the message');
    expect(shadow.querySelector('button')).to.equal(null);
  });

  it('lists papers with authors, journal, year, DOI, PMID and abstract, and adds an open-access PDF', async () => {
    const shadow = mount(<LiteratureHits hits={[paper, { ...paper, title: 'Closed paper', pdfUrl: null, doi: null, pmid: null, url: 'javascript:alert(1)' }]} />);
    await waitFor(() => shadow.querySelector('[part="literature-hit"]'), 'the hits');
    const text = shadow.textContent ?? '';
    expect(text).to.contain('Aspirin and cyclooxygenase acetylation');
    expect(text).to.contain('Jane Smith, Li Wang, A Third 等 1 人');
    expect(text).to.contain('Journal of medicinal chemistry · 2020 · PubMed');
    expect(text).to.contain('DOI 10.1021/acs.jmedchem.0c00001');
    expect(text).to.contain('PMID 31000001');
    expect(text).to.contain('BACKGROUND: Aspirin acetylates COX-1.');
    // A link that is not http(s) is shown as text, never as a link.
    expect([...shadow.querySelectorAll('a')].some((a) => a.getAttribute('href')?.startsWith('javascript:'))).to.equal(false);
    const adds = [...shadow.querySelectorAll('button')].filter((b) => b.textContent === '添加 PDF 到知识库');
    expect(adds).to.have.length(1);
    saveAnswer = () => ok({ name: 'Aspirin and cyclooxygenase acetylation.pdf', docId: 'd2', url: paper.pdfUrl, fetchedAt: '' });
    adds[0]!.click();
    await waitFor(() => shadow.querySelector('select'), 'the folder choice');
    button(shadow, '保存')!.click();
    await waitFor(() => (shadow.textContent?.includes('已保存到知识库：Aspirin and cyclooxygenase acetylation.pdf') ? true : null), 'the saved message');
    expect(posts).to.deep.equal([{ url: '/api/v1/literature/save_pdf', body: { pdf_url: paper.pdfUrl, title: paper.title, folder_id: 'k1' } }]);
  });

  // Issue 32 §2: the hit list's own words in the language shown; a paper's title, authors, journal,
  // identifiers and abstract are data (in English whatever the interface).
  for (const lang of ['zh', 'en'] as const) {
    it(`the literature hits have no untranslated words in ${lang === 'zh' ? 'Chinese' : 'English'}`, async () => {
      const shadow = mount(<LiteratureHits hits={[paper, { ...paper, title: '阿司匹林与环氧合酶', abstract: null, pdfUrl: null }]} />, lang);
      await waitFor(() => shadow.querySelector('[part="literature-hit"]') && (lang === 'zh' || !/[\u4e00-\u9fff]/.test(shadow.querySelector('summary')?.textContent ?? '')), 'the hits');
      shadow.querySelectorAll('details').forEach((d) => (d.open = true));
      expect(untranslated(shadow, lang, 'a, [data-field]')).to.deep.equal([]);
      // The interface's words are there to be judged: the "more authors" note, the abstract label.
      expect(shadow.textContent).to.contain(lang === 'zh' ? '等 1 人' : '+1 more');
    });
  }
});
