import zlib from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startDemo } from './helpers';

// Embedding on a foreign page: the demo pages run on their own origin (allowed by
// CSAI_CORS_ORIGINS in playwright.config.ts) and load /widgets/csai.js from the CSAI server.
let demo: { url: string; close: () => Promise<void> };
let csai: string;

test.beforeAll(async ({ baseURL }, testInfo) => {
  csai = baseURL!;
  demo = await startDemo(csai, testInfo.parallelIndex);
});
test.afterAll(async () => demo?.close());

/** Everything the page would complain about: console errors (CSP violations included) and uncaught errors. */
function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** The loader and the chunks it imports statically: what every embedding page downloads first. */
async function loaderFiles(request: APIRequestContext) {
  const files = new Map<string, Buffer>();
  const visit = async (url: string) => {
    if (files.has(url)) return;
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    const body = await res.body();
    files.set(url, body);
    // Static imports only (`import"./x.js"`, `from"./x.js"`); import() is the lazy part.
    for (const m of body.toString('utf8').matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)) await visit(new URL(m[1]!, url).href);
  };
  await visit(`${csai}/widgets/csai.js`);
  return files;
}

test('the loader is small and served to other origins', async ({ request }) => {
  const res = await request.get(`${csai}/widgets/csai.js`, { headers: { Origin: demo.url } });
  expect(res.status()).toBe(200);
  expect(res.headers()['access-control-allow-origin']).toBe('*');
  const files = await loaderFiles(request);
  const gzip = [...files.values()].reduce((sum, body) => sum + zlib.gzipSync(body).length, 0);
  expect(gzip, `loader weighs ${gzip} bytes gzip in ${files.size} files`).toBeLessThanOrEqual(5 * 1024);
});

test('one script tag and one element work from another origin', async ({ page }) => {
  const problems = watchProblems(page);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${demo.url}/index.html`);
  const label = page.locator('csai-status [part~="label"]');
  await expect(label).toHaveText('服务正常');
  // Chunks resolve against the script's URL, not the page's.
  const scripts = requests.filter((u) => u.endsWith('.js'));
  expect(scripts.some((u) => u.startsWith(`${csai}/assets/`))).toBe(true);
  expect(scripts.filter((u) => u.startsWith(`${demo.url}/assets/`))).toEqual([]);
  expect(problems).toEqual([]);
});

test('loading the script a second time (another URL) changes nothing and throws nothing', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto(`${demo.url}/index.html`);
  await expect(page.locator('csai-status [part~="label"]')).toHaveText('服务正常');
  await page.evaluate(async (src) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = src;
    const loaded = new Promise((resolve, reject) => {
      script.onload = resolve;
      script.onerror = reject;
    });
    document.head.append(script);
    await loaded;
  }, `${csai}/widgets/csai.js?again=1`);
  await page.evaluate((origin) => {
    const el = document.createElement('csai-status');
    el.setAttribute('api-base', origin);
    el.setAttribute('lang', 'en');
    document.body.append(el);
  }, csai);
  await expect(page.locator('csai-status').nth(1).locator('[part~="label"]')).toHaveText('Service available');
  expect(problems).toEqual([]);
});

test('an element’s code loads only when the first one appears', async ({ page, request }) => {
  const problems = watchProblems(page);
  const loader = new Set((await loaderFiles(request)).keys());
  const requested: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${csai}/`) && r.url().endsWith('.js')) requested.push(r.url());
  });
  await page.goto(`${demo.url}/later.html`);
  await page.waitForFunction(() => customElements.get('csai-status') !== undefined);
  expect(requested.filter((u) => !loader.has(u))).toEqual([]);
  await page.getByRole('button', { name: '添加' }).click();
  await expect(page.locator('csai-status [part~="label"]')).toHaveText('服务正常');
  const lazy = requested.filter((u) => !loader.has(u));
  expect(lazy.some((u) => /\/assets\/Status-[\w-]+\.js$/.test(u)), lazy.join(' ')).toBe(true);
  expect(problems).toEqual([]);
});

test.describe('on a lab notebook page with a hostile stylesheet and a strict CSP', () => {
  test('the element shows, reports to the page, and trips no CSP rule', async ({ page }) => {
    const problems = watchProblems(page);
    await page.goto(`${demo.url}/eln.html`);
    const pill = page.locator('csai-status [part~="pill"]');
    await expect(pill).toHaveAttribute('data-state', 'online');
    await expect(pill).toBeVisible();
    await expect(page.locator('csai-status [part~="label"]')).toBeVisible();
    const look = await pill.evaluate((el) => {
      const s = getComputedStyle(el);
      return { fontSize: s.fontSize, display: s.display, font: s.fontFamily, letterSpacing: s.letterSpacing };
    });
    expect(look.fontSize).toBe('14px');
    expect(look.letterSpacing).toBe('normal');
    expect(look.font).not.toContain('Times');
    await expect(page.locator('#events')).toContainText('csai-status-change: {"online":true');
    expect(problems).toEqual([]);
  });

  test('the element changes no style of the page', async ({ page }) => {
    await page.goto(`${demo.url}/eln.html`);
    await expect(page.locator('csai-status [part~="pill"]')).toHaveAttribute('data-state', 'online');
    const snapshot = () =>
      page.evaluate(() => {
        const pick = (sel: string) => {
          const s = getComputedStyle(document.querySelector(sel)!);
          return [s.display, s.color, s.fontFamily, s.fontSize, s.padding, s.backgroundColor, s.letterSpacing].join('|');
        };
        return { title: pick('#eln-title'), table: pick('#experiments'), button: pick('#eln-button'), body: pick('body'), sheets: document.styleSheets.length, adopted: document.adoptedStyleSheets.length };
      });
    const before = await snapshot();
    await page.evaluate((origin) => {
      const el = document.createElement('csai-status');
      el.setAttribute('api-base', origin);
      el.setAttribute('theme', 'dark');
      document.querySelector('aside')!.append(el);
    }, csai);
    await expect(page.locator('csai-status').nth(1).locator('[part~="pill"]')).toHaveAttribute('data-state', 'online');
    expect(await snapshot()).toEqual(before);
    expect(before.adopted).toBe(0);
  });
});

test('theming by attributes and page-wide tokens, under a CSP', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto(`${demo.url}/theming.html`);
  const colour = (id: string, partName: string, prop: string) =>
    page.locator(`#${id} [part~="${partName}"]`).evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);
  await expect(page.locator('#dark [part~="pill"]')).toHaveAttribute('data-state', 'online');
  expect(await colour('plain', 'product', 'color')).toBe('rgb(37, 99, 235)');
  expect(await colour('teal', 'product', 'color')).toBe('rgb(15, 118, 110)');
  expect(await colour('teal', 'pill', 'border-top-left-radius')).toBe('2px');
  expect(await colour('brand', 'product', 'color')).toBe('rgb(124, 58, 237)');
  expect(await colour('dark', 'pill', 'background-color')).toBe('rgb(17, 24, 39)');
  await expect(page.locator('#english [part~="label"]')).toHaveText('Service available');
  await page.getByRole('button', { name: '切换' }).click();
  await expect.poll(() => colour('plain', 'pill', 'background-color')).toBe('rgb(17, 24, 39)');
  expect(problems).toEqual([]);
});
