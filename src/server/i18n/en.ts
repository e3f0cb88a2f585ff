/**
 * English for what the server writes to a user: the tool list, tool results and
 * notes, and the common error messages. Chinese is the source: `messages` maps a Chinese message
 * as the server writes it to its English (i18next natural-language keys; a message not listed
 * stays Chinese), `keyed` holds texts with values (i18next interpolation), both languages.
 */

/** Chinese message (exactly as written in the code) → English. */
export const messages: Record<string, string> = {
  // Errors (errors.ts, app.ts, auth, access, knowledge, channels).
  资源不存在: 'Not found',
  没有权限执行此操作: 'You are not allowed to do this',
  请先登录: 'Please sign in first',
  接口不存在: 'No such API endpoint',
  页面不存在: 'Page not found',
  请求无效: 'Invalid request',
  '请求体不是合法的 JSON': 'The request body is not valid JSON',
  请求体不能为空: 'The request body must not be empty',
  不支持的请求内容类型: 'Unsupported content type',
  请求体过大: 'The request body is too large',
  请求在发送完成前被中断: 'The request was interrupted before it was fully sent',
  '服务器内部错误，请稍后重试': 'Internal server error, please try again later',
  '请求过于频繁，请稍后再试': 'Too many requests, please try again later',
  '验证码发送过于频繁，请60秒后再试': 'Codes are being sent too often, please try again in 60 seconds',
  '验证码错误或已失效，请重新获取': 'The code is wrong or has expired, please request a new one',
  账号或密码错误: 'Wrong account or password',
  '账号已停用，请联系管理员': 'This account is disabled, please contact your administrator',
  '账号尚未激活，请先打开激活链接': 'This account is not activated yet, please open the activation link first',
  'CSRF 校验失败，请刷新页面后重试': 'CSRF check failed, please reload the page and try again',
  '请求缺少 X-Requested-With 头': 'The request lacks the X-Requested-With header',
  '本站已关闭自助注册，请联系管理员开通账号': 'Self sign-up is closed on this site, please ask your administrator for an account',
  '本站已关闭自助注册，请直接使用单位统一账号（LDAP）登录': 'Self sign-up is closed on this site, please sign in with your organisation account (LDAP)',
  '单位目录服务（LDAP）暂时无法连接，请稍后再试或联系管理员': 'The organisation directory (LDAP) cannot be reached, please try again later or contact your administrator',
  'API 令牌不能用来管理令牌，请在网页中登录后操作': 'An API token cannot manage tokens, please sign in on the website to do this',
  令牌不存在: 'Token not found',
  知识库不存在: 'Knowledge base not found',
  知识库名称已存在: 'A knowledge base with this name already exists',
  文档不存在: 'Document not found',
  文件不存在: 'File not found',
  频道不存在: 'Conversation not found',
  问题不存在: 'Question not found',
  部门不存在: 'Department not found',
  分享记录不存在: 'Share not found',
  要分享的用户不存在: 'The user to share with does not exist',
  要分享的部门不存在: 'The department to share with does not exist',
  不能分享给自己: 'You cannot share with yourself',
  只有知识库的创建者可以修改它: 'Only the creator of the knowledge base can change it',
  只有文档的上传者可以修改它: 'Only the uploader of the document can change it',
  '只有管理员可以管理 MCP 服务器': 'Only administrators can manage MCP servers',
  只有管理员可以修改公告: 'Only administrators can change the announcement',
  // The built-in question folder's name (knowledge/documents.ts), said when it is shown.
  问答文件: 'Files uploaded with questions',
  // The id of a path (contract/knowledge.ts, channel.ts `id('编号')`) missing or too long.
  请提供编号: 'An id is required',
  编号无效: 'The id is not valid',
  内置的问答文件夹不能删除: 'The built-in questions folder cannot be deleted',
  内置的问答文件夹不能分享: 'The built-in questions folder cannot be shared',
  内置的问答文件夹不能修改: 'The built-in questions folder cannot be changed',
  请选择要上传的文件: 'Please choose a file to upload',
  '请以 multipart/form-data 方式上传文件': 'Please upload files as multipart/form-data',
  '上传内容格式不正确或不完整，请重新上传': 'The upload is malformed or incomplete, please upload again',
  表单字段过多: 'Too many form fields',
  文件名不能为空: 'The file name must not be empty',
  '文档正在解析中，请稍后再试': 'The document is still being parsed, please try again later',
  '文件正在解析中，请等待解析完成': 'The file is still being parsed, please wait until it is done',
  '文档解析失败，没有可显示的内容': 'The document could not be parsed, there is nothing to show',
  该文档不是图片: 'This document is not an image',
  '该文档不是 PDB 结构文件': 'This document is not a PDB structure file',
  '该文档不是 SDF 分子文件，没有可读取的分子': 'This document is not an SDF file, it has no molecules to read',
  该文档没有可翻译的文字: 'This document has no text to translate',
  '翻译需要配置语言模型（LLM_BASE_URL 和 LLM_MODEL），当前服务器未配置': 'Translation needs a language model (LLM_BASE_URL and LLM_MODEL); this server has none configured',
  '语言模型没有返回译文，请稍后重试': 'The language model returned no translation, please try again later',
  翻译已取消: 'Translation cancelled',
  任务不存在: 'Task not found',
  '任务已经结束，无法取消': 'The task has already ended and cannot be cancelled',
  '任务还在排队或运行，请先取消再删除': 'The task is still queued or running, cancel it before deleting it',
  '任务尚未完成，还没有可下载的结果': 'The task has not finished, there is no result to download yet',
  结果文件不存在: 'Result file not found',
  回答完成后才能运行其中的代码: 'The code of an answer can be run once the answer is complete',
  'Last-Event-ID 无效': 'Invalid Last-Event-ID',

  // Tools: what disables them (shown to administrators) and what they say (tools/*.ts).
  '本版本尚未包含此工具的实现，升级到包含它的 CSAI 版本后启用。': 'This version does not include this tool yet; it is enabled by upgrading to a CSAI version that does.',
  '本服务器使用受限工具列表（CSAI_TOOLS_RESTRICTED=1），管理员已停用此工具；去掉该设置并重启服务后启用。':
    'This server uses the restricted tool list (CSAI_TOOLS_RESTRICTED=1): the administrator turned this tool off; remove that setting and restart the server to enable it.',
  '本服务器使用受限工具列表（CSAI_TOOLS_RESTRICTED=1），对接任务不可用': 'This server uses the restricted tool list (CSAI_TOOLS_RESTRICTED=1): docking is not available',
  '检查此工具是否可用时出错，请查看服务器日志。': 'Checking whether this tool can be used failed; see the server log.',
  '未配置联网搜索服务：请设置 SEARXNG_URL（自建 SearXNG）、TAVILY_API_KEY、BOCHA_API_KEY 或 WEB_SEARCH_CUSTOM_URL 中的至少一个，并重启服务。':
    'No web search service is configured: set at least one of SEARXNG_URL (a SearXNG of your own), TAVILY_API_KEY, BOCHA_API_KEY or WEB_SEARCH_CUSTOM_URL and restart the server.',
  '未配置专利检索服务：请设置 SURECHEMBL_URL（如 https://www.surechembl.org/api）或 CSAI_PUBCHEM_URL（如 https://pubchem.ncbi.nlm.nih.gov/rest/pug），然后重启服务。':
    'No patent search service is configured: set SURECHEMBL_URL (e.g. https://www.surechembl.org/api) or CSAI_PUBCHEM_URL (e.g. https://pubchem.ncbi.nlm.nih.gov/rest/pug), then restart the server.',
  '对接需要 AutoDock Vina、Open Babel、RDKit（Python）与 PLIP：请运行 `npm run setup`，或以 root 身份执行 `apt-get install -y autodock-vina openbabel python3-rdkit plip python3-pdbfixer`':
    'Docking needs AutoDock Vina, Open Babel, RDKit (Python) and PLIP: run `npm run setup`, or as root `apt-get install -y autodock-vina openbabel python3-rdkit plip python3-pdbfixer`',
  '系统名称解析需要 OPSIN 和 Java：请运行 `npm run setup`，或以 root 身份执行 `apt-get install -y libopsin-java default-jre-headless`':
    'Systematic names need OPSIN and Java: run `npm run setup`, or as root `apt-get install -y libopsin-java default-jre-headless`',
  '本服务器未启动后台任务服务。': 'This server has not started the background task service.',
  '代码执行沙箱只能在 Linux 上运行：请在安装了 bubblewrap 的 Linux 服务器上运行 CSAI 以启用。': 'The code execution sandbox runs on Linux only: run CSAI on a Linux server with bubblewrap to enable it.',
  '未找到 bubblewrap（bwrap），代码不会在沙箱外运行。请安装 bubblewrap（以 root 运行 apt-get install -y bubblewrap）后重启服务。':
    'bubblewrap (bwrap) was not found, and code is never run outside the sandbox. Install bubblewrap (as root: apt-get install -y bubblewrap) and restart the server.',
  '未找到 prlimit 或 setpriv（util-linux），无法限制沙箱资源。请安装 util-linux 后重启服务。': 'prlimit or setpriv (util-linux) was not found, so the sandbox cannot be limited. Install util-linux and restart the server.',
  '工具返回的结果格式不正确，已忽略该结果': 'The tool returned a result of the wrong form; it was ignored',
  '工具运行失败，请稍后重试': 'The tool failed, please try again later',
  工具参数无法读取: 'The tool arguments cannot be read',
  '工具参数必须是 JSON 对象': 'The tool arguments must be a JSON object',
  '请提供至少 1 个分子（SMILES 或化合物名称），或在提问时附带 SDF 分子文件': 'Give at least one molecule (a SMILES or a compound name), or attach an SDF file to the question',
  // The structure step's progress texts (parsing/structure-job.ts, parsing/chemistry/document.ts); the parse's own are in progress-en.ts.
  等待识别结构式: 'Waiting to read the chemical structures in the drawings',
  正在识别图中的结构式: 'Reading the chemical structures in the image',
  结构式识别完成: 'Chemical structures read',
  '结构式识别多次中断，已停止': 'Reading the chemical structures was interrupted too often and has stopped',
  '服务器未安装 osra（Debian 软件包 osra），未识别图片和扫描页中的化学结构': 'osra is not installed on the server (Debian package osra); the chemical structures in pictures and scanned pages were not read',
};

/** Texts with values ({{name}}), in both languages; the Chinese is what the code wrote before. */
export const keyed = {
  zh: {
    'tool.unavailable_user': '此工具在本服务器上未启用，如需使用请联系管理员。',
    'tool.unavailable': '{{description}}（不可用：{{reason}}）',
    'tool.with_note': '{{description}}（{{note}}）',
    'tool.timeout': '工具运行超时（超过{{seconds}}秒），已停止',
    'tool.unknown': '没有名为“{{name}}”的工具',
    'tool.ldap_disabled': '“{{label}}”不可用：管理员已为单位目录（LDAP）账号停用此工具，如需使用请联系管理员。',
    'admet.sdf_limited': '附带的 SDF 文件共有 {{total}} 个分子，单次最多计算 {{limit}} 个，本次计算了其中 {{count}} 个。',
    'admet.unknown': '无法识别“{{text}}”：既不是有效的 SMILES，也不是已知的化合物名称',
    'validation.unsupported': '不支持的参数：{{field}}',
  },
  en: {
    'tool.unavailable_user': 'This tool is not enabled on this server; contact your administrator to use it.',
    'tool.unavailable': '{{description}} (unavailable: {{reason}})',
    'tool.with_note': '{{description}} ({{note}})',
    'tool.timeout': 'The tool ran longer than {{seconds}} s and was stopped',
    'tool.unknown': 'There is no tool named “{{name}}”',
    'tool.ldap_disabled': '“{{label}}” is unavailable: the administrator turned this tool off for organisation directory (LDAP) accounts; contact your administrator to use it.',
    'admet.sdf_limited': 'The attached SDF file has {{total}} molecules; at most {{limit}} are computed at once, {{count}} of them this time.',
    'admet.unknown': 'Cannot read “{{text}}”: it is neither a valid SMILES nor a known compound name',
    'validation.unsupported': 'Unsupported parameter: {{field}}',
  },
} as const;

/** The tool catalog (tools/registry.ts CATALOG) and the tools' descriptions, in English. */
export const toolsEn = {
  groups: { search: 'Search', molecule: 'Molecules and proteins', other: 'Other' } as Record<string, string>,
  labels: {
    intelligence_search: 'Intelligence database search',
    web_search: 'Web search',
    page_crawl: 'Page crawl',
    admet: 'ADMET calculation',
    patent_search: 'Molecule patent search',
    name_to_smiles: 'Chemical name to SMILES',
    smiles_completion: 'SMILES completion',
    docking_submit: 'Docking job submission',
    task_query: 'Task query',
    code_execution: 'Code generation and execution',
  } as Record<string, string>,
  descriptions: {
    intelligence_search:
      'Searches every knowledge base document you may read (your own, shared and public): passages by text, and molecules in SDF files, PDB ligands and the literature by structure (SMILES or SMARTS) — exact, substructure and similarity (Morgan fingerprint Tanimoto) — with document and page.',
    web_search: 'Searches the internet through the search service the server is configured with: page titles, addresses, sites and snippets, for recent or public information beyond the chosen documents.',
    page_crawl: 'Reads the text of an http(s) web page or PDF link: respects the site’s robots.txt, extracts the readable article as Markdown (tables kept) and cites it (address, title, site, summary, time read). Cannot read intranet or local addresses.',
    admet:
      'Computes ADMET properties of 1–50 molecules (SwissADME style): physicochemical properties, lipophilicity (WLOGP, MLOGP), ESOL solubility, BOILED-Egg GI absorption and blood–brain barrier, skin permeation, Lipinski and other drug-likeness rules, PAINS/Brenk alerts, synthetic accessibility and QED. Input SMILES or compound names; molecules of an SDF file attached to the question are computed too.',
    patent_search:
      'Searches patents related to a molecule: by structure (SMILES or InChIKey, normalised with RDKit) or by text (compound name, keywords), in the configured SureChEMBL and PubChem patent cross-references; returns patent number, title, applicant, publication date and link, and says so when nothing is found.',
    name_to_smiles:
      'Turns a chemical name into a structure: systematic names (English IUPAC, CAS index names) are read by OPSIN, trade, common and Chinese names of usual drugs and reagents are looked up in the built-in dictionary; returns canonical SMILES and InChIKey, says so plainly when nothing is found, and never makes up a structure.',
    smiles_completion:
      'Completes or repairs an incomplete or wrong SMILES (unclosed rings or branches, unmatched brackets, lower-case atoms that cannot be aromatic, fragments with * attachment points): up to 5 canonical molecules checked by RDKit with the changes made; a valid SMILES gets its canonical form and InChIKey.',
    docking_submit:
      'Submits a molecular docking job (AutoDock Vina): docks a SMILES molecule into a pocket of a PDB structure in the knowledge base. The box comes from a reference ligand of the structure (the first by default), given residues, or a centre and size. The job runs in the background.',
    task_query: 'Shows your background tasks (docking): the recent tasks and their state, or one task’s progress or results (each pose’s Vina score and RMSD).',
    code_execution:
      'Runs Python 3 code in an isolated sandbox (no network; RDKit, numpy, pandas, matplotlib and the standard library; working folder /work, the question’s documents mounted read-only under /input). Results are printed; plots saved with plt.savefig appear in the answer. Each run has time, memory and output limits.',
  } as Record<string, string>,
};
