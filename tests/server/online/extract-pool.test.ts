import { afterAll, describe, expect, it } from 'vitest';
import { savedPage } from '../../../bench/crawl.bench';
import { extractArticle } from '../../../src/server/online/crawl/extract';
import { createExtractPool, ExtractTimeoutError } from '../../../src/server/online/crawl/extract-pool';

// Page extraction in worker threads: the same article as in the server's own thread, pages at once
// spread over the threads, and a page past the time limit refused (its thread ended and replaced).
const pool = createExtractPool({ size: 2 });
afterAll(() => pool.close());
const url = new URL('https://news.example.com/article');

describe('the extraction pool', () => {
  it('gives exactly what extractArticle gives, for pages read at once', async () => {
    const pages = Array.from({ length: 6 }, (_, i) => savedPage(i));
    const articles = await Promise.all(pages.map((html) => pool.extract(html, url)));
    articles.forEach((article, i) => expect(article).toEqual(extractArticle(pages[i]!, url)));
    expect(articles[2]!.markdown).toMatch(/^\| Study +\| Dose \(mg\) \| Patients \| Outcome +\|$/m);
  }, 60_000);

  it('refuses a page that takes longer than its time limit, and the next page gets a fresh thread', async () => {
    const strict = createExtractPool({ size: 1, taskTimeoutMs: 1 });
    try {
      await expect(strict.extract(savedPage(1), url)).rejects.toBeInstanceOf(ExtractTimeoutError);
      await expect(strict.extract(savedPage(2), url)).rejects.toBeInstanceOf(ExtractTimeoutError);
    } finally {
      await strict.close();
    }
    // The shared-size pool is unaffected.
    expect((await pool.extract(savedPage(3), url)).title).toBe('Article 3');
  }, 60_000);

  it('a closed pool refuses new pages', async () => {
    const closing = createExtractPool({ size: 1 });
    await closing.close();
    await expect(closing.extract(savedPage(1), url)).rejects.toThrow('extraction pool closed');
  });
});
