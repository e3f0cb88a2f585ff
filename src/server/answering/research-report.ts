import type { ResearchSection } from './research-read';
import { cut } from './research-text';
import { NO_MODEL_LINE, asQuoteText, hitQuoteLines, titleText, quoteOf, subjectTokens } from './local-engine';

/** Characters of one passage given to the model. */
const PROMPT_PASSAGE_CHARS = 1500;
export const NOTHING_FOR_SUB_QUESTION = '在所选文档中没有找到与这个子问题相关的段落。';
export const CONTINUE_REPORT = '报告在上面中断了（服务重启）。请从中断处直接接着写完，不要重复已经写出的内容，也不要加任何说明。';

/** The local engine's report: the quoted passages per sub-question, with an introduction and a conclusion. */
export function localReport(question: string, sections: ResearchSection[], docCount: number): string {
  const cited = sections.reduce((sum, s) => sum + s.passages.length, 0);
  const citedOnline = sections.reduce((sum, s) => sum + s.online.length, 0);
  const lines = [
    NO_MODEL_LINE,
    '',
    `## 深度研究报告：${asQuoteText(cut(question, 80))}`,
    '',
    '### 引言',
    `本报告把问题拆解为 ${sections.length} 个子问题，在所选的 ${docCount} 篇文档中逐一检索，去重后摘录 ${cited} 个段落${citedOnline ? `，并引用 ${citedOnline} 条联网搜索结果` : ''}。各节按子问题列出原文要点并标注出处，点击引用可以打开原文并定位到对应页面。`,
    '',
  ];
  sections.forEach((s, i) => {
    lines.push(`### ${i + 1}. ${asQuoteText(s.question)}`);
    if (!s.passages.length && !s.online.length) lines.push(NOTHING_FOR_SUB_QUESTION);
    const words = subjectTokens(s.question);
    let doc = '';
    for (const p of s.passages) {
      if (p.docId !== doc) {
        doc = p.docId;
        lines.push(`**《${titleText(p.title)}》**`);
      }
      lines.push(`- ${p.page ? `第${p.page}页：` : ''}“${quoteOf(p.text, words)}” [${p.n}]`);
    }
    // Online results: the snippet (or the page read in full) quoted where it meets the sub-question.
    if (s.online.length) lines.push(...hitQuoteLines(s.online.map((h) => (h.page ? { ...h, snippet: h.page } : h)), words).slice(0, -1));
    lines.push('');
  });
  lines.push('### 结论');
  const answered = sections.filter((s) => s.passages.length || s.online.length);
  if (!answered.length) lines.push('在所选文档中没有找到与这些子问题相关的段落，可以换个说法或选择其他文档再试。');
  for (const s of answered) {
    const p = s.passages[0];
    const h = s.online[0];
    const source = p ? `《${titleText(p.title)}》${p.page ? `第${p.page}页` : ''} [${p.n}]` : `${titleText(h!.site)}《${titleText(h!.title)}》 [${h!.n}]`;
    lines.push(`- ${asQuoteText(cut(s.question, 60))}：主要依据${source}。`);
  }
  lines.push('', '以上均为原文摘录，未经模型归纳，请结合原文判断。');
  return lines.join('\n');
}

/** The writer's system prompt: the report's structure and the passages, numbered, per sub-question. */
export function reportPrompt(sections: ResearchSection[], hasSources: boolean): string {
  const lines = [
    '你是 CSAI，一名面向药物研发与化学研究的助手，现在撰写一份深度研究报告。',
    '始终使用提问者所用的语言撰写。使用 Markdown：一级标题为报告题目；“引言”一节概述问题与研究思路；每个子问题一节，以子问题为小标题；最后“结论”一节综合回答原问题。',
  ];
  const any = sections.some((s) => s.passages.length || s.online.length);
  if (any) {
    lines.push(
      '下面是按子问题检索到的段落，编号为 [n]。凡依据这些段落的陈述，都在句末用对应的 [n] 标注出处（可写作 [1][3]）；只使用下列编号，不要编造引用；段落中没有的信息要说明。',
    );
  } else if (hasSources) {
    lines.push('在用户所选文档中没有检索到与这些子问题相关的段落：先说明这一点，再谨慎地依据通用知识撰写，不要编造引用。');
  } else {
    lines.push('用户没有选择文档：依据你的知识撰写，不要编造引用或出处。');
  }
  sections.forEach((s, i) => {
    lines.push('', `## 子问题 ${i + 1}：${s.question}`);
    if (!s.passages.length && !s.online.length && any) lines.push('（没有找到相关段落）');
    for (const p of s.passages) lines.push(`[${p.n}] 《${p.title}》${p.page ? ` 第${p.page}页` : ''}`, cut(p.text, PROMPT_PASSAGE_CHARS), '');
    // Online results (web pages, papers, patents): the page read in full when there is one, else the snippet.
    for (const h of s.online) lines.push(`[${h.n}] ${h.title}（联网搜索：${h.site}，${h.url}）`, cut(h.page ?? h.snippet, PROMPT_PASSAGE_CHARS), '');
  });
  return lines.join('\n');
}
