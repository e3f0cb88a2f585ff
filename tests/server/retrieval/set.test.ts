import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// The evaluation set of bench/retrieval.bench.ts: questions over the real test PDFs
// (scripts/fetch-test-docs.mjs), each with the page that holds its answer.
const ROOT = path.resolve(__dirname, '../../..');
const schema = z.object({
  docs: z.record(z.string(), z.object({ file: z.string(), pages: z.number().int().positive() })),
  questions: z.array(z.object({ doc: z.string(), lang: z.enum(['zh', 'en']), question: z.string().min(4), page: z.number().int().positive() })),
});
const set = schema.parse(JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/data/retrieval-set.json'), 'utf8')));
const HAN = /\p{Script=Han}/u;

describe('retrieval evaluation set', () => {
  it('has at least 40 questions, at least 15 in Chinese and 15 in English, each written in its language', () => {
    expect(set.questions.length).toBeGreaterThanOrEqual(40);
    const zh = set.questions.filter((q) => q.lang === 'zh');
    const en = set.questions.filter((q) => q.lang === 'en');
    expect(zh.length).toBeGreaterThanOrEqual(15);
    expect(en.length).toBeGreaterThanOrEqual(15);
    for (const q of zh) expect(q.question, q.question).toMatch(HAN);
    for (const q of en) expect(q.question, q.question).not.toMatch(HAN);
  });

  it('asks no question twice', () => {
    expect(new Set(set.questions.map((q) => q.question)).size).toBe(set.questions.length);
  });

  it('points every question at a known document and a page inside it', () => {
    for (const q of set.questions) {
      const doc = set.docs[q.doc];
      expect(doc, q.question).toBeDefined();
      expect(q.page, q.question).toBeLessThanOrEqual(doc!.pages);
    }
  });

  it('records the real page count of each test PDF', async () => {
    const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
    for (const doc of Object.values(set.docs)) {
      const pdf = await getDocument({ data: new Uint8Array(fs.readFileSync(path.join(docsDir, doc.file))), isEvalSupported: false, verbosity: 0 }).promise;
      expect(pdf.numPages, doc.file).toBe(doc.pages);
      await pdf.destroy();
    }
  });
});
