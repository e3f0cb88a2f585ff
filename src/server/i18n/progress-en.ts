/**
 * English for a document's progress texts (kb_documents.progress_texts): parsing
 * writes them in Chinese as it goes (parsing/*.ts, parse-job.ts); the document list and record say
 * them in the reader's language through localizeMessage. Fixed texts here, texts with values
 * (pages, counts, a reason) as patterns; a text not listed stays as written.
 */

/** Chinese progress text (exactly as parsing writes it) → English. */
export const progressMessages: Record<string, string> = {
  '已上传，等待解析': 'Uploaded, waiting to be parsed',
  开始解析: 'Parsing started',
  解析完成: 'Parsing finished',
  '与已解析的相同文件一致，直接使用其结果': 'Same as a file already parsed: its result is used',
  '解析多次中断，已停止': 'Parsing was interrupted too many times and has stopped',
  '正在识别标题、段落和表格': 'Finding headings, paragraphs and tables',
  正在建立检索索引: 'Building the search index',
  正在建立网页内容索引: 'Indexing the web page',
  未提取到文字: 'No text was extracted',
  'PDF 已加密，无法解析': 'The PDF is encrypted and cannot be parsed',
  'PDF 文件已损坏或格式无效': 'The PDF file is damaged or not valid',
  解析超时: 'Parsing timed out',
  解析进程意外退出: 'The parsing process ended unexpectedly',
  '文件已加密，无法解析，请上传未加密的文件': 'The file is encrypted and cannot be parsed; please upload an unencrypted file',
  '文件已损坏或格式不正确，无法解析': 'The file is damaged or malformed and cannot be parsed',
  '解析超时：文件过大或过于复杂': 'Parsing timed out: the file is too large or too complex',
  '文件无法解析，请确认文件完好后重新上传': 'The file cannot be parsed; check that it is intact and upload it again',
  'SDF 文件中没有可读取的分子': 'The SDF file has no readable molecules',
  'PDB 文件中没有原子坐标': 'The PDB file has no atom coordinates',
  正在读取结构: 'Reading the structure',
  正在识别图片中的文字: 'Reading the text in the image',
  文字识别完成: 'Text recognition finished',
  '文字识别超过时限，部分文字未识别': 'Text recognition ran out of time; part of the text was not read',
  图片中没有识别到文字: 'No text was found in the image',
  'OCR 不可用：服务器未安装 tesseract，图片未做文字识别': 'OCR unavailable: tesseract is not installed on the server, the image was not read',
  '未安装中文识别数据（tesseract-ocr-chi-sim），只识别英文': 'The Chinese recognition data (tesseract-ocr-chi-sim) is not installed: only English was read',
  'PP-OCR 识别模型无法加载，已改用 tesseract 识别文字': 'The PP-OCR models could not be loaded: the text was read with tesseract',
  // Structure reading (parsing/chemistry) as it was when these were written; newer texts there add their own.
  正在识别图中的化学结构: 'Reading chemical structures in the drawings',
  '缺少渲染组件（@napi-rs/canvas），未识别图中的化学结构': 'The rendering component (@napi-rs/canvas) is missing: structures in the drawings were not read',
};

/** A list of pages as parsing writes it ("3、5、7 等") in English ("3, 5, 7 and more"). */
const pages = (list: string) => list.replace(/（(\d+)°）/g, ' ($1°)').split('、').join(', ').replace(/\s*等$/u, ' and more');

/** Progress texts with values, Chinese → English (each captured Chinese part said again through `again`). */
export const PROGRESS_PATTERNS: Array<[RegExp, (m: RegExpMatchArray, again: (s: string) => string) => string]> = [
  [/^第(\d+)次尝试解析$/u, (m) => `Parsing, attempt ${m[1]}`],
  [/^解析失败：(.+)$/su, (m, again) => `Parsing failed: ${again(m[1]!)}`],
  [/^解析出错，稍后重试：(.+)$/su, (m, again) => `Parsing failed, it will be tried again: ${again(m[1]!)}`],
  [/^解析进程意外退出（(.+)）$/u, (m) => `The parsing process ended unexpectedly (${m[1]})`],
  [/^共 (\d+) 页，正在提取文字$/u, (m) => `${m[1]} pages, extracting the text`],
  [/^共 (\d+) 条记录，正在读取分子$/u, (m) => `${m[1]} records, reading the molecules`],
  [/^有 (\d+) 条记录无法解析结构$/u, (m) => `${m[1]} records have a structure that cannot be read`],
  [/^第 (.+) 页没有文字层（可能是扫描件），服务器未安装 tesseract，未做文字识别$/u, (m) => `Page ${pages(m[1]!)} has no text layer (perhaps scanned); tesseract is not installed on the server, so it was not read`],
  [/^第 (.+) 页没有文字层（可能是扫描件），缺少渲染组件，未做文字识别$/u, (m) => `Page ${pages(m[1]!)} has no text layer (perhaps scanned); the rendering component is missing, so it was not read`],
  [/^第 (.+) 页没有文字层，正在用 OCR 识别$/u, (m) => `Page ${pages(m[1]!)} has no text layer: reading it with OCR`],
  [/^第 (.+) 页为扫描图像，已用 OCR 识别文字$/u, (m) => `Page ${pages(m[1]!)} is a scanned image: its text was read with OCR`],
  [/^第 (.+) 页文字识别超过时限，部分文字未识别$/u, (m) => `Text recognition of page ${pages(m[1]!)} ran out of time; part of the text was not read`],
  [/^第 (.+) 页页面过大，已跳过识别$/u, (m) => `Page ${pages(m[1]!)} is too large and was not read`],
  [/^文字识别用时超过 (\S+) 分钟，第 (.+) 页未识别$/u, (m) => `Text recognition took over ${m[1]} minutes; page ${pages(m[2]!)} was not read`],
  [/^扫描页过多，只识别了前 (\d+) 页$/u, (m) => `Too many scanned pages: only the first ${m[1]} were read`],
  [/^图片过大（(\d+) × (\d+) 像素，超过 (\S+) 百万像素），未做文字识别$/u, (m) => `The image is too large (${m[1]} × ${m[2]} pixels, over ${m[3]} megapixels); its text was not read`],
  [/^图片方向旋转了 (\d+)°，已转正后识别$/u, (m) => `The image was rotated ${m[1]}°; it was turned upright and read`],
  [/^第 (.+?) 页方向是旋转的，已转正后识别$/u, (m) => `Page ${pages(m[1]!)} was rotated; it was turned upright and read`],
  // Structure reading (parsing/chemistry), as it was when these were written.
  [/^从图中识别出 (\d+) 个化学结构$/u, (m) => `${m[1]} chemical structures were read from the drawings`],
  [/^正在识别第 (\d+) 页图中的化学结构$/u, (m) => `Reading chemical structures in the drawings of page ${m[1]}`],
  [/^第 (.+) 页化学结构识别超过时限，部分结构未识别$/u, (m) => `Structure reading of page ${pages(m[1]!)} ran out of time; some structures were not read`],
  [/^第 (.+) 页页面过大，未识别化学结构$/u, (m) => `Page ${pages(m[1]!)} is too large: its structures were not read`],
  [/^化学结构识别用时已到上限，第 (.+) 页未识别$/u, (m) => `Structure reading reached its time limit; page ${pages(m[1]!)} was not read`],
  [/^图片过大（(\d+) × (\d+) 像素），未识别图中的化学结构$/u, (m) => `The image is too large (${m[1]} × ${m[2]} pixels): its structures were not read`],
  [/^化学结构识别失败：(.+)$/su, (m) => `Structure reading failed: ${m[1]}`],
  // The structure job's own lines (parsing/structure-job.ts).
  [/^正在识别结构式（第 (\d+)\/(\d+) 页）$/u, (m) => `Reading chemical structures (page ${m[1]}/${m[2]})`],
  [/^结构式识别失败：(.+)$/su, (m, again) => `Reading the chemical structures failed: ${again(m[1]!)}`],
  [/^结构式识别出错，稍后重试：(.+)$/su, (m, again) => `Reading the chemical structures failed and will be tried again: ${again(m[1]!)}`],
];
