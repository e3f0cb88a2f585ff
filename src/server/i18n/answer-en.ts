/**
 * The words of an answer written without a language model (answering/local-engine.ts,
 * local-tools.ts, question-structures.ts), in both languages: the asker's language
 * (users.language) chooses. The Chinese is what the code wrote before, verbatim.
 */
export const answerTexts = {
  zh: {
    'answer.no_model_line': '未配置大语言模型，以下内容直接摘自所选文档中与问题最相关的段落，未经模型归纳。',
    'answer.no_model_no_sources': '未配置大语言模型，因此无法直接回答这个问题。',
    'answer.no_model_tools': '未配置大语言模型，以下结果由工具直接计算，未经模型归纳。',
    'answer.no_model_structures': '未配置大语言模型，以下结构由 RDKit 直接解析，未经模型归纳。',
    'answer.no_model_web': '未配置大语言模型，以下内容直接摘自联网搜索结果的摘要，未经模型归纳。',
    'answer.web_results_heading': '**联网搜索结果**',
    'answer.also_retrieved': '**检索排在前面的其他段落**（与问题的字面重合较少，可能相关）',
    'answer.nothing_found': '在所选文档中没有找到与问题相关的段落，可以换个说法或选择其他文档再试。',
    'answer.help_intro': '没有语言模型时，我可以：',
    'answer.help_passages': '- 从你选择的文件（最多6个）或知识库（最多2个）中找出与问题最相关的段落，逐条引用并标注出处页码；',
    'answer.help_open': '- 点击引用可以打开原文并定位到对应页面；',
    'answer.help_tools': '- 问题中写明分子（SMILES、化学名或附上 SDF 文件）并提到“ADMET”或“性质”时，直接调用工具计算。',
    'answer.help_choose': '请在输入框的“文件”或“知识库”标签中选择文档后再提问。',
    'answer.page': '第{{page}}页：',
    'answer.tool_results': '**工具结果**',
    'answer.tool_submitted': '{{label}}：任务已提交，进度和结果见上方任务卡片（随任务状态实时更新）。',
    'answer.tool_done': '{{label}}：已完成，详见上方结果卡片。{{brief}}',
    'answer.tool_failed': '{{label}}未能完成：{{brief}}',
    'answer.name_unavailable': '无法识别“{{name}}”的结构：{{reason}}可以直接给出它的 SMILES 再提问。',
    'answer.name_not_found': '没有找到名称“{{name}}”对应的结构（不会猜测结构），可以给出它的 SMILES 或系统命名再提问。',
    'answer.structures_heading': '**问题中的结构**',
    'answer.structure_line': '- 分子式 {{formula}}，重原子 {{atoms}} 个{{written}}，规范 SMILES：`{{smiles}}`',
    'answer.structure_written': '（问题中写作 {{written}}）',
  },
  en: {
    'answer.no_model_line': 'No language model is configured: what follows is quoted from the passages of the chosen documents closest to the question, not summarised by a model.',
    'answer.no_model_no_sources': 'No language model is configured, so this question cannot be answered directly.',
    'answer.no_model_tools': 'No language model is configured: the results below were computed by the tools, not summarised by a model.',
    'answer.no_model_structures': 'No language model is configured: the structures below were read by RDKit, not summarised by a model.',
    'answer.no_model_web': 'No language model is configured: what follows is quoted from the snippets of the web search results, not summarised by a model.',
    'answer.web_results_heading': '**Web search results**',
    'answer.also_retrieved': '**Other passages retrieval ranked high** (sharing fewer words with the question; they may be relevant)',
    'answer.nothing_found': 'No passage of the chosen documents is about this question; try other words or other documents.',
    'answer.help_intro': 'Without a language model I can:',
    'answer.help_passages': '- find the passages closest to the question in the files (up to 6) or knowledge bases (up to 2) you choose, quote each and give its page;',
    'answer.help_open': '- open the original at that page when you click a citation;',
    'answer.help_tools': '- compute with the tools when the question names a molecule (a SMILES, a chemical name or an attached SDF file) and mentions “ADMET” or “properties”.',
    'answer.help_choose': 'Choose documents under “Files” or “Knowledge bases” in the question box, then ask again.',
    'answer.page': 'page {{page}}: ',
    'answer.tool_results': '**Tool results**',
    'answer.tool_submitted': '{{label}}: the job was submitted; its progress and results are in the task card above (updated as the job runs).',
    'answer.tool_done': '{{label}}: done, see the result card above. {{brief}}',
    'answer.tool_failed': '{{label}} could not finish: {{brief}}',
    'answer.name_unavailable': 'Cannot read the structure of “{{name}}”: {{reason}} You can give its SMILES and ask again.',
    'answer.name_not_found': 'No structure was found for the name “{{name}}” (structures are never guessed); you can give its SMILES or systematic name and ask again.',
    'answer.structures_heading': '**Structures in the question**',
    'answer.structure_line': '- Formula {{formula}}, {{atoms}} heavy atoms{{written}}, canonical SMILES: `{{smiles}}`',
    'answer.structure_written': ' (written {{written}} in the question)',
  },
} as const;

/** Other server messages in English (Chinese message → English). */
export const moreMessages: Record<string, string> = {
  'MCP 需要 API 令牌：请在“API 令牌”页面创建令牌，并以 Authorization: Bearer <令牌> 发送':
    'MCP needs an API token: create one on the “API tokens” page and send it as Authorization: Bearer <token>',
};
