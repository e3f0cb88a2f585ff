import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { csrfHeaders, signUpThroughOutbox, TEST_DOCS, uploadParsed, type TestUser } from './helpers';
import { wrongLanguage } from '../widgets/untranslated';

// Every page the site's router serves, in Chinese and in English, scanned in a real
// browser against the real server with real data (a parsed PDF, an SDF's molecules, a conversation
// with answers and tool cards): no visible text, title, placeholder, aria-label or alt in the other
// language. Words kept in the Chinese interface are the reasoned allow-list of tests/widgets/untranslated.ts;
// what the user typed or uploaded (file names, SMILES, questions, a document's own text) is data.
const DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
const stamp = Date.now().toString(36);
/** An administrator (the MCP server page is theirs), made with `npm run user`. */
const admin: TestUser = { email: `i18n-${stamp}@example.com`, name: '周药化', password: 'Quinoline-core-5' };
/** A second account for the sign-up flow's pages (its activation link). */
const newcomer: TestUser = { email: `i18n-new-${stamp}@example.com`, name: '吴同学', password: 'Pyridine-ring-3' };

/** What the user or a document wrote: shown as it is in either language. */
const DATA = [
  'code', 'pre', 'textarea', 'kbd', 'samp',
  // Names of the user's files, channels, molecules and folders; questions; the account's name and e-mail.
  '[part~="file-chip"]', '[part~="question-text"]', '[part~="document-title"]', '[part~="doc-title"]',
  '.user-trigger', '.menu__header', '.example',
  // A document's own pages and passages (the viewer, citations' quotes).
  'csai-pdf-viewer [part~="page"]', '.textLayer', '[part~="excerpt"]', '[data-quote]', 'blockquote',
  // A tool's raw result where it has no card, as the model reads it (passages of the documents).
  '[part~="tool-text"]',
  // Structure drawings: atom labels.
  'svg',
  // A word marked as another language (the language switch names each language in itself).
  'span[lang]',
].join(', ');

interface Seen { text: string; from: string }

/** Every text a reader meets on the page: visible text nodes (shadow roots included) and the title, placeholder, aria-label and alt of visible elements. */
async function readerTexts(page: Page, skip: string): Promise<Seen[]> {
  return page.evaluate((skipSelector) => {
    const out: { text: string; from: string }[] = [{ text: document.title, from: 'document.title' }];
    const shown = (el: Element) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
    const label = (el: Element) => `${el.tagName.toLowerCase()}${el.getAttribute('part') ? `[part=${el.getAttribute('part')}]` : el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`;
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        const text = node.textContent?.trim();
        const parent = node.parentElement ?? (node.parentNode instanceof ShadowRoot ? node.parentNode.host : null);
        if (text && parent && shown(parent)) out.push({ text, from: label(parent) });
        return;
      }
      if (node instanceof Element) {
        if (['STYLE', 'SCRIPT', 'NOSCRIPT', 'TEMPLATE'].includes(node.tagName.toUpperCase())) return;
        // An SVG <title> is a tooltip explaining an abbreviation: read as an attribute would be.
        if (node.tagName.toUpperCase() === 'TITLE') return;
        if (skipSelector && node.matches(skipSelector)) return;
        if (shown(node)) {
          for (const attr of ['title', 'placeholder', 'aria-label', 'alt']) {
            const value = node.getAttribute(attr)?.trim();
            if (value) out.push({ text: value, from: `${label(node)}@${attr}` });
          }
        }
        if (node.shadowRoot) walk(node.shadowRoot);
      }
      for (const child of node.childNodes) walk(child);
    };
    walk(document.body);
    return out;
  }, skip);
}

/** The title of index.html, shown until a page's code sets its own. */
const LOADING_TITLE = fs.readFileSync('index.html', 'utf8').match(/<title>(.*)<\/title>/)?.[1] ?? '';

/** Waits until the page has stopped loading and its elements have rendered. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // A route's lazy chunk, its elements' strings and their first fetches.
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 15_000 }).catch(() => undefined);
  // Every page sets its own title once rendered; until then the title is index.html's (Chinese).
  await page.waitForFunction((loading) => document.title !== loading, LOADING_TITLE, { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(400);
}

class Findings {
  readonly list: string[] = [];
  constructor(private readonly lang: 'zh' | 'en') {}
  /** Scans the page as it is now, under the name `where`. */
  async scan(page: Page, where: string, skip = '') {
    let seen: Seen[] = [];
    // A page that moves on by itself (a redirect after a failed load) is read where it lands.
    for (let attempt = 0; ; attempt++) {
      try {
        seen = await readerTexts(page, [DATA, skip].filter(Boolean).join(', '));
        break;
      } catch (e) {
        if (attempt === 2 || !String(e).includes('Execution context was destroyed')) throw e;
        await settle(page);
      }
    }
    for (const { text, from } of seen) {
      for (const word of wrongLanguage([text], this.lang)) this.list.push(`${where.replace(/^https?:\/\/[^/]+/, '')} · ${from}: «${word}» in «${text.slice(0, 160)}»`);
    }
  }
  /** Opens `url`, lets it settle and scans it. */
  async visit(page: Page, url: string) {
    await page.goto(url);
    await settle(page);
    await this.scan(page, url, PAGE_DATA[url]);
  }
}

let pdfId = '';
let sdfId = '';
/** The conversation asked in each language: answers are written in the asker's language when asked, and kept so. */
const channelUrl: Record<'zh' | 'en', string> = { zh: '', en: '' };

async function signIn(context: BrowserContext, user: TestUser) {
  const headers = await csrfHeaders(context.request);
  const res = await context.request.post('/api/v1/auth/sign-in', { headers, data: { account: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
}


/** Asks in the question box of the page and waits for the answer to finish. */
async function ask(page: Page, question: string, file?: string) {
  const box = page.locator('csai-ask').last();
  const input = box.locator('[part~="input"]');
  if (file) {
    await box.locator('input[type=file]').setInputFiles(path.join(TEST_DOCS, file));
    await expect(box.locator('[part~="file-chip"]')).toHaveAttribute('data-phase', 'done', { timeout: 90_000 });
  }
  await input.fill(question);
  await input.press('Enter');
  await expect(page).toHaveURL(/\/channels\?channel_id=/);
  const channels = page.locator('csai-channels');
  await expect(channels.locator('[part~="question-text"]').last()).toHaveText(question, { timeout: 60_000 });
  await expect(channels.locator('[data-question-id]').last()).not.toHaveAttribute('data-status', /running|pending|queued/, { timeout: 120_000 });
}

test.describe.configure({ mode: 'serial' });
// One long test with a context per language: a trace of it is large and was cut short under load.
test.use({ trace: 'off' });

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(400_000);
  for (const f of ['zhlipsum.pdf', 'cdk2.sdf']) expect(fs.existsSync(path.join(TEST_DOCS, f)), `${f}: run node scripts/fetch-test-docs.mjs`).toBe(true);
  execFileSync(process.execPath, ['dist/server/cli/user.js', 'create', '--email', admin.email, '--name', admin.name, '--password', admin.password, '--admin'], {
    env: { ...process.env, CSAI_DATA_DIR: DATA_DIR, CSAI_LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
  await signUpThroughOutbox(baseURL!, newcomer);
  const context = await browser.newContext({ baseURL });
  await signIn(context, admin);
  const page = await context.newPage();
  pdfId = await uploadParsed(page, { name: 'zhlipsum.pdf', mimeType: 'application/pdf' }, { timeout: 120_000 });
  sdfId = await uploadParsed(page, { name: 'cdk2.sdf', mimeType: 'chemical/x-mdl-sdfile' }, { timeout: 120_000 });
  await askConversation(page, 'zh');
  await context.close();
});

/** The questions of each language's conversation: one on the documents (cited passages), then the tools' cards. */
const QUESTIONS = {
  zh: ['这份文档讲了什么内容？', '阿司匹林的 ADMET 性质是什么？', '画出 CC(=O)Oc1ccccc1C(=O)O 的结构并给出分子式', '检索含 c1ccccc1C(=O)O 子结构的分子'],
  en: ['What is this document about?', 'What are the ADMET properties of aspirin?', 'Draw the structure of CC(=O)Oc1ccccc1C(=O)O and give its formula', 'Search molecules with the substructure c1ccccc1C(=O)O'],
};

/** Asks the language's questions in a new conversation (the signed-in user reads that language). */
async function askConversation(page: Page, lang: 'zh' | 'en') {
  const [first, ...rest] = QUESTIONS[lang];
  await page.goto('/');
  await ask(page, first!, 'zhlipsum.pdf');
  channelUrl[lang] = page.url();
  for (const q of rest) await ask(page, q);
}

/** Every page of src/host/routes.ts, signed in, with the menus and dialogs a user opens. */
async function scanSite(page: Page, found: Findings, lang: 'zh' | 'en') {
  const t = (zh: string, en: string) => (lang === 'zh' ? zh : en);
  await found.visit(page, '/');
  // The user menu (language, versions, tokens, administration) and the version history dialog.
  await page.locator('.user-trigger').click();
  await expect(page.getByRole('menu')).toBeVisible();
  await found.scan(page, '/ user menu');
  await page.getByRole('menuitem', { name: t('版本历史', 'Version history') }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await settle(page);
  await found.scan(page, '/ version history');
  await page.keyboard.press('Escape');

  await found.visit(page, channelUrl[lang]);
  await expect(page.locator('csai-channels').locator('[data-question-id]')).toHaveCount(4);
  await found.scan(page, `${channelUrl[lang]} (answers and cards)`);
  await found.visit(page, '/channels');
  await found.visit(page, '/knowledges');
  await page.locator('csai-knowledge').getByText(t('提问上传的文件', 'Files uploaded with questions')).first().click();
  await settle(page);
  await found.scan(page, '/knowledges (question uploads)');
  for (const part of ['sidebar_header', 'sidebar_content', 'main_list', 'main_blank']) await found.visit(page, `/knowledges/${part}`);
  await found.visit(page, '/public_folder');
  await found.visit(page, `/pdf_viewer?docId=${pdfId}`);
  await found.visit(page, `/pdf_viewer?docId=${sdfId}&type=5`);
  await found.visit(page, '/pdf_viewer?docId=missing-doc');

  await found.visit(page, '/molecules');
  await page.locator('.molsearch__query').fill('c1ccccc1');
  await page.locator('.molsearch__submit').click();
  await expect(page.locator('.molsearch__hit').first()).toBeVisible({ timeout: 30_000 });
  await settle(page);
  await found.scan(page, '/molecules (hits)');

  for (const url of ['/docking', '/sar', '/billing', '/tokens', '/admin/mcp_servers', '/test', '/errors/404', '/errors/403', '/no-such-page', '/ask/ask_main', '/ask/ask_button']) {
    await found.visit(page, url);
  }
}

/** The pages a signed-out visitor meets. */
async function scanSignedOut(page: Page, found: Findings) {
  for (const url of ['/auth/sign-in', '/auth/sign-up', '/auth/otp', '/auth/forgot-password', '/auth/reset-password', '/auth/reset-password?token=bad-token', '/auth/activate-transit', '/auth/activate-transit?activate_transit=bad-token']) {
    await found.visit(page, url);
  }
}

/**
 * Parts of a page that are not the interface's words, by page. /test: the server's environment
 * (versions, paths, the browser's user agent) and, for administrators, each tool's description as
 * the model reads it (parameter names, environment variables to set).
 */
const PAGE_DATA: Record<string, string> = {
  '/test': '[data-ocr-engine], [data-structure-recognition], dd.small, dd > span.small.muted, dd:has(> code)',
};

/**
 * English findings still open, each with why; everything else must be clean. Remove
 * an entry when it is fixed: the scan then holds the page to no Chinese at all.
 */
const OPEN_IN_ENGLISH: { where: RegExp; what: RegExp; why: string }[] = [
  { where: /^\/channels · /, what: /./, why: 'conversation names are the questions the user typed (data): the list holds the Chinese conversation too, and the check cannot tell a name from interface text' },
];

test('every page in Chinese has no English interface words, and in English no Chinese', async ({ browser, baseURL }) => {
  test.setTimeout(900_000);
  const report: Record<string, string[]> = {};
  for (const lang of ['zh', 'en'] as const) {
    const found = new Findings(lang);
    const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
    // The language a signed-out visitor chose last (the site remembers it in the browser).
    await context.addInitScript((l) => window.localStorage.setItem('csai:language', l), lang);
    const page = await context.newPage();
    await scanSignedOut(page, found);

    await signIn(context, admin);
    await page.goto('/');
    await settle(page);
    // The user's choice in the user menu: the site follows it, and the server keeps it.
    await page.locator('.user-trigger').click();
    await page.getByRole('menuitem', { name: lang === 'zh' ? '中文' : 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
    // The English reader's own conversation: the server writes its answers and tools' lines in English.
    if (lang === 'en') await askConversation(page, 'en');
    await scanSite(page, found, lang);
    await context.close();
    report[lang] = found.list;
    fs.mkdirSync('test-results', { recursive: true });
    fs.writeFileSync('test-results/i18n-scan.json', JSON.stringify(report, null, 1));
  }
  const stillOpen = (f: string) => OPEN_IN_ENGLISH.some((o) => o.where.test(f) && o.what.test(f.slice(f.indexOf('«'))));
  expect({ zh: report.zh, en: report.en!.filter((f) => !stillOpen(f)) }).toEqual({ zh: [], en: [] });
});
