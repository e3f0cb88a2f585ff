import { describe, expect, it } from 'vitest';
import {
  canAddToKnowledgeBase,
  canSelectFile,
  canSelectKnowledgeBase,
  channelNameFor,
  checkUpload,
  isSendableQuestion,
  MAX_FILE_BYTES,
  parseDocIds,
  questionKeyAction,
  stripHtmlTags,
} from '../../src/core/validation';
import { createQueryCache } from '../../src/core/query-cache';
import { checkEnvironment } from '../../src/core/env';
import { createToastStore } from '../../src/core/toast';
import { createI18n } from '../../src/core/i18n';
import { z } from 'zod';

const file = (name: string, size = 1000) => ({ name, size });

describe('a question', () => {
  it('is not sent when empty or only whitespace', () => {
    expect(isSendableQuestion('')).toBe(false);
    expect(isSendableQuestion(' \n\t　'.replace('　', ' '))).toBe(false);
    expect(isSendableQuestion('阿司匹林的作用机制？')).toBe(true);
  });
  it('names its channel with its first 50 characters', () => {
    const q = '化'.repeat(60);
    expect(channelNameFor(q)).toBe('化'.repeat(50));
    expect(channelNameFor('  短问题  ')).toBe('短问题');
  });
  it('with a line break or a pasted code block is named from its first line with text, cleaned', () => {
    expect(channelNameFor('\n\n  第一行\n第二行')).toBe('第一行');
    expect(channelNameFor('这段代码做什么？\r\n```python\nprint(1)\n```')).toBe('这段代码做什么？');
    expect(channelNameFor('```python\nimport numpy as np\n```')).toBe('import numpy as np');
    expect(channelNameFor('a\tb\u200b\u202ec\u0007')).toBe('a bc');
    expect(channelNameFor('\u2028分子\u2029量')).toBe('分子');
    expect(channelNameFor(`${'a'.repeat(49)}😀tail`)).toBe(`${'a'.repeat(49)}😀`);
    // Nothing but invisible characters or fences is not a question: it is not sent at all.
    for (const q of ['\u200b', '```\n```', '\u202e \n\t']) {
      expect(channelNameFor(q)).toBe('');
      expect(isSendableQuestion(q)).toBe(false);
    }
    expect(isSendableQuestion('```python\nprint(1)\n```')).toBe(true);
  });
  it('Enter sends, Shift/Ctrl+Enter add a newline, composing never sends', () => {
    const key = (over: Partial<KeyboardEvent>) => ({ key: 'Enter', shiftKey: false, ctrlKey: false, isComposing: false, ...over });
    expect(questionKeyAction(key({}))).toBe('send');
    expect(questionKeyAction(key({ shiftKey: true }))).toBe('newline');
    expect(questionKeyAction(key({ ctrlKey: true }))).toBe('newline');
    expect(questionKeyAction(key({ isComposing: true }))).toBe('none');
    expect(questionKeyAction(key({ key: 'a' }))).toBe('none');
  });
  it('pasted text loses its HTML tags', () => {
    expect(stripHtmlTags('<p>苯<b>环</b></p>')).toBe('苯环');
  });
});

describe('uploading files', () => {
  it('refuses more than 6 in all', () => {
    const r = checkUpload([file('a.pdf'), file('b.pdf')], ['1.pdf', '2.pdf', '3.pdf', '4.pdf', '5.pdf']);
    expect(r.accepted).toHaveLength(0);
    expect(r.message).toBe('多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问');
    expect(checkUpload(Array.from({ length: 6 }, (_, i) => file(`${i}.pdf`))).message).toBeUndefined();
  });
  it('accepts only pdf, jpg, jpeg, png, pdb and sdf, in any letter case', () => {
    const r = checkUpload([file('a.PDF'), file('b.docx'), file('c.sdf'), file('noext')]);
    expect(r.accepted.map((a) => a.name)).toEqual(['a.PDF', 'c.sdf']);
    expect(r.message).toBe('仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式');
  });
  it('refuses files over 150 MB', () => {
    expect(checkUpload([file('big.pdf', MAX_FILE_BYTES)]).message).toBeUndefined();
    const r = checkUpload([file('big.pdf', MAX_FILE_BYTES + 1)]);
    expect(r.message).toBe('文件大小不能超过150MB');
    expect(r.accepted).toHaveLength(0);
  });
  it('refuses a duplicate document name but renames images _1, _2', () => {
    expect(checkUpload([file('paper.pdf')], ['paper.pdf']).message).toBe('文件名重复，请重新上传');
    const r = checkUpload([file('mol.png'), file('mol.png')], ['mol.png']);
    expect(r.message).toBeUndefined();
    expect(r.accepted.map((a) => a.name)).toEqual(['mol_1.png', 'mol_2.png']);
  });
});

describe('choosing context', () => {
  it('allows at most 6 files and 2 knowledge bases', () => {
    expect(canSelectFile(5, 0)).toEqual({ ok: true });
    expect(canSelectFile(6, 0)).toEqual({ ok: false, message: '最多只能选择6个文件' });
    expect(canSelectKnowledgeBase(1, 0)).toEqual({ ok: true });
    expect(canSelectKnowledgeBase(2, 0)).toEqual({ ok: false, message: '最多只能选择2个知识库' });
  });
  it('keeps files and knowledge bases mutually exclusive', () => {
    expect(canSelectKnowledgeBase(0, 1)).toEqual({ ok: false, message: '已经选择文件，不能选择知识库' });
    expect(canSelectFile(0, 1)).toEqual({ ok: false, message: '已经选择知识库，不能选择文件' });
  });
  it('adding to a knowledge base needs a folder and a document', () => {
    expect(canAddToKnowledgeBase('f1', 'd1')).toBe(true);
    expect(canAddToKnowledgeBase('', 'd1')).toBe(false);
    expect(canAddToKnowledgeBase('f1', null)).toBe(false);
  });
  it('reads docIds as one id or a comma-separated list, dropping junk', () => {
    expect(parseDocIds('a1')).toEqual(['a1']);
    expect(parseDocIds('a1, b2,,a1')).toEqual(['a1', 'b2']);
    expect(parseDocIds('<script>,ok')).toEqual(['ok']);
    expect(parseDocIds(null)).toEqual([]);
  });
});

describe('the query cache', () => {
  it('serves a result for 5 minutes, then asks again', async () => {
    let now = 0;
    let calls = 0;
    const cache = createQueryCache({ now: () => now });
    const fetcher = async () => ++calls;
    expect(await cache.query('k', fetcher)).toBe(1);
    now = 5 * 60_000 - 1;
    expect(await cache.query('k', fetcher)).toBe(1);
    now = 5 * 60_000;
    expect(await cache.query('k', fetcher)).toBe(2);
  });
  it('shares one request between concurrent callers and forgets failures', async () => {
    let calls = 0;
    const cache = createQueryCache();
    const [a, b] = await Promise.all([cache.query('k', async () => ++calls), cache.query('k', async () => ++calls)]);
    expect([a, b, calls]).toEqual([1, 1, 1]);
    await expect(cache.query('bad', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await cache.query('bad', async () => 'ok')).toBe('ok');
    cache.invalidate('k');
    expect(cache.isFresh('k')).toBe(false);
  });
});

describe('the start-up environment check', () => {
  it('passes any environment against the empty schema', () => {
    const toasts = createToastStore();
    expect(checkEnvironment({ MODE: 'production' }, { toasts, i18n: createI18n() })).toBe(true);
    expect(toasts.$toasts.value).toHaveLength(0);
  });
  it('logs and shows the Env error toast with the issues as JSON when it fails', () => {
    const toasts = createToastStore();
    const logged: unknown[] = [];
    const ok = checkEnvironment({}, { toasts, i18n: createI18n(), log: (m, d) => logged.push(m, d) }, z.object({ VITE_API: z.string() }));
    expect(ok).toBe(false);
    expect(logged[0]).toContain('Invalid environment variables');
    const toast = toasts.$toasts.value[0]!;
    expect(toast.title).toBe('Env error: you should check your .env file');
    expect(toast.variant).toBe('destructive');
    expect(JSON.parse(toast.description!)[0].path).toEqual(['VITE_API']);
  });
});
