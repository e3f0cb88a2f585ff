import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { aspirinSdf, makePdf, upload, waitParsed, KB } from '../knowledge-helpers';
import { localizeMessage } from '../../../src/server/i18n';
import { localEngine, NOTHING_FOUND } from '../../../src/server/answering/local-engine';
import type { AnswerInput, AnswerSink, NumberedPassage } from '../../../src/server/answering/engine';
import { createToolRegistry } from '../../../src/server/tools/registry';
import type { Lang } from '../../../src/server/i18n';

// Issue 32 §2: a document's progress texts and the answer written without a model are in the
// language the user chose (users.language), Chinese by default.
const HAN = /\p{Script=Han}/u;

describe('progress texts', () => {
  it('are said in English, values kept: fixed texts, page lists, counts and a failure with its reason', () => {
    expect(localizeMessage('已上传，等待解析', 'en')).toBe('Uploaded, waiting to be parsed');
    expect(localizeMessage('解析完成', 'en')).toBe('Parsing finished');
    expect(localizeMessage('共 12 页，正在提取文字', 'en')).toBe('12 pages, extracting the text');
    expect(localizeMessage('第 3、5、7 等 页为扫描图像，已用 OCR 识别文字', 'en')).toBe('Page 3, 5, 7 and more is a scanned image: its text was read with OCR');
    expect(localizeMessage('解析失败：文件已损坏或格式不正确，无法解析', 'en')).toBe('Parsing failed: The file is damaged or malformed and cannot be parsed');
    expect(localizeMessage('第2次尝试解析', 'en')).toBe('Parsing, attempt 2');
    expect(localizeMessage('有 3 条记录无法解析结构', 'en')).toBe('3 records have a structure that cannot be read');
    // Chinese stays as parsing wrote it.
    expect(localizeMessage('共 12 页，正在提取文字', 'zh')).toBe('共 12 页，正在提取文字');
  });
});

describe('a document read by an English and a Chinese user', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('lists its progress in each reader’s language (the record and the list)', async () => {
    const u = await signedInUser(server);
    const up = await upload(u.client, [
      { name: 'notes.pdf', data: makePdf([['Aspirin inhibits cyclooxygenase.']]), type: 'application/pdf' },
      { name: 'aspirin.sdf', data: aspirinSdf },
    ]);
    expect(up.status).toBe(200);
    const [pdf, sdf] = up.body.data.name_id.map((n) => n.docId);
    const zhDoc = await waitParsed(u.client, pdf!);
    await waitParsed(u.client, sdf!);
    expect(zhDoc.progress_texts).toContain('解析完成');
    expect(zhDoc.progress_texts.join('')).toMatch(HAN);

    expect((await u.client.request('PUT', '/api/v1/auth/me/language', { body: { language: 'en' } })).status).toBe(200);
    for (const id of [pdf!, sdf!]) {
      const en = await u.client.get<{ progress_texts: string[] }>(`${KB}/doc/${id}`);
      expect(en.body.data.progress_texts).toContain('Parsing finished');
      for (const text of en.body.data.progress_texts) expect(text).not.toMatch(HAN);
    }
    const list = await u.client.get(`${KB}/all_docs?page=1&size=10`);
    expect(list.status).toBe(200);
    const texts = JSON.stringify(list.body.data).match(/"progress_texts":\[[^\]]*\]/g) ?? [];
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const t of texts) expect(t).not.toMatch(HAN);
  });
});

describe('the answer without a model', () => {
  const answer = async (lang: Lang, passages: NumberedPassage[], question: string) => {
    let text = '';
    const sink: AnswerSink = { notice: () => {}, thinking: () => {}, delta: (t) => (text += t), toolCall: () => {}, toolResult: () => {}, citation: () => {}, researchStep: () => {} };
    const input: AnswerInput = {
      question,
      history: [],
      hasSources: passages.length > 0,
      passages,
      options: { if_search_online: false, search_type: 'all', if_thinking: false, deepresearch: false, tools_name: [] },
      viewer: { userId: 'u', lang },
      docIds: passages.map((p) => p.docId),
      signal: new AbortController().signal,
    };
    await localEngine().answer(input, sink, createToolRegistry([], { restricted: false, log: { error: () => {} } }));
    return text;
  };
  const passage: NumberedPassage = { n: 1, docId: 'd1', title: 'aspirin.pdf', page: 4, bbox: null, text: 'Aspirin inhibits cyclooxygenase irreversibly.', score: 1, coverage: 1 } as NumberedPassage;

  it('is in English for an English reader: its headline, the page of each quote, and what it can do without documents', async () => {
    const quoted = await answer('en', [passage], 'Which enzyme does aspirin inhibit?');
    expect(quoted).toContain('No language model is configured');
    expect(quoted).toContain('page 4: ');
    expect(quoted).not.toMatch(HAN);
    const none = await answer('en', [], 'What is aspirin?');
    expect(none).toContain('Without a language model I can:');
    expect(none).not.toMatch(HAN);
  });

  it('is in Chinese by default, and says in English when nothing was found', async () => {
    const zh = await answer('zh', [passage], 'Which enzyme does aspirin inhibit?');
    expect(zh).toContain('第4页：');
    expect(zh).toContain('未配置大语言模型');
    const far = { ...passage, coverage: 0, text: 'Unrelated words entirely.' } as NumberedPassage;
    expect(await answer('zh', [far], '布洛芬的剂量')).toContain(NOTHING_FOUND);
    const en = await answer('en', [far], 'ibuprofen dose');
    expect(en).toContain('No passage of the chosen documents is about this question');
    expect(en).not.toMatch(HAN);
  });
});
