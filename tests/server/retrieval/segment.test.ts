import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { alternativesOf, chemToken, codeTokens, matchQuery, queryTerms, segmentForIndex, tokens } from '../../../src/server/text/segment';

describe('index tokens', () => {
  it('splits Chinese into words and adds character bigrams for unknown names', () => {
    const t = tokens('阿司匹林是一种解热镇痛药');
    expect(t).toEqual(expect.arrayContaining(['阿司匹林', '解热', '镇痛']));
    // ICU does not know 布洛芬; the bigrams still make it findable.
    expect(tokens('布洛芬')).toEqual(expect.arrayContaining(['布洛', '洛芬']));
  });

  it('keeps CAS numbers, SMILES and formulas whole', () => {
    const t = tokens('阿司匹林（CAS 50-78-2，C9H8O4）的 SMILES 是 CC(=O)Oc1ccccc1C(=O)O。');
    expect(t).toContain(chemToken('50-78-2'));
    expect(t).toContain(chemToken('CC(=O)Oc1ccccc1C(=O)O'));
    expect(t).toContain('c9h8o4');
    // No fragments of the SMILES leak in as words.
    expect(t).not.toContain('oc1ccccc1c');
  });

  it('reads a name or formula in prose brackets as itself, not as a SMILES with its brackets', () => {
    // "（MMC）" in a question was one index word "(mmc)" that no page holds: the question was taken
    // to name something the documents never mention, and abstained.
    expect(tokens('大规模多作者协作网站（MMC）上的内容', { bigrams: false })).toContain('mmc');
    expect(tokens('CDK2 抑制剂').filter((t) => t.includes('cdk2'))).toEqual(tokens('抑制剂（CDK2）').filter((t) => t.includes('cdk2')));
    expect(tokens('(C9H8O4)')).toEqual(expect.arrayContaining(['c9h8o4']));
    expect(tokens('(C9H8O4)').some((t) => t.startsWith('x'))).toBe(false);
    expect(tokens('只有dvipdfmx（原名dvipdfm-cjk）可以', { bigrams: false })).toEqual(expect.arrayContaining(['dvipdfmx', 'dvipdfm', 'cjk']));
    // A SMILES in brackets keeps its own branches.
    expect(tokens('乙酸 (CC(=O)O) 是')).toContain(chemToken('CC(=O)O'));
  });

  it('indexes code and measurements that only look like a SMILES with their words as well', () => {
    // A LaTeX option list, an activity written without spaces and a command-line option were one
    // chemistry token each: their words (fontset, windows, ic50, texmfhome) were in no index.
    const latex = tokens('\\documentclass[UTF8,fontset=windows]{ctexart}', { bigrams: false });
    expect(latex).toEqual(expect.arrayContaining(['documentclass', 'utf8', 'fontset', 'windows', 'ctexart']));
    expect(tokens('IC50=12 nM')).toEqual(expect.arrayContaining(['ic50', '12', 'nm']));
    expect(tokens('Ki=3.5nM')).toContain('ki');
    expect(tokens('pH=7.4')).toContain('ph');
    expect(tokens('kpsewhich -var-value=TEXMFHOME')).toContain('texmfhome');
    // Each is still one token as written, so the same text asked for finds it exactly.
    expect(tokens('IC50=12 nM')).toContain(chemToken('IC50=12'));
    // A SMILES, with bracket atoms, ring bonds reused or written %nn, still leaves no fragments.
    for (const smiles of ['CC(C)Cc1ccc(cc1)[C@@H](C)C(O)=O', 'c1ccc2c(c1)[nH]c1ccccc12', 'OC(=O)C%10CCCCC%10', 'F/C=C\\F']) {
      expect(tokens(`化合物 ${smiles} 的活性`, { bigrams: false })).toEqual(['化合物', '的', '活性', chemToken(smiles)]);
    }
  });

  it('lower-cases English and drops punctuation', () => {
    expect(tokens('Kinase Inhibitors, e.g. Imatinib!')).toEqual(['kinase', 'kinas', 'inhibitors', 'inhibitor', 'e.g', 'imatinib']);
  });

  it('indexes an English word with its stem and asks for the stem, so one form finds the others', () => {
    expect(tokens('Compounds were classified')).toEqual(['compounds', 'compound', 'were', 'classified', 'classifi']);
    expect(matchQuery('classifying compound')).toBe('"classifi" OR "compound"');
    // Function words, short words, names with digits and Chinese are not stemmed.
    expect(tokens('this IC50 was 布洛芬')).toEqual(expect.arrayContaining(['this', 'ic50', 'was', '布洛', '洛芬']));
    expect(tokens('this IC50 was')).not.toEqual(expect.arrayContaining(['thi']));
    expect(tokens('this IC50 was').filter((t) => !t.startsWith('ic50'))).toEqual(['this', 'was']);
  });

  it('turns a question into an OR of quoted tokens, without lone Chinese characters', () => {
    expect(matchQuery('布洛芬的剂量')!.split(' OR ').sort()).toEqual(['"剂量"', '"布洛"', '"洛芬"', '"的剂"', '"芬的"'].sort());
    expect(matchQuery('   ')).toBeNull();
    expect(matchQuery('"); drop table x; --')).toContain('"drop"');
  });

  it('leaves out how a Chinese question asks (怎样, 为什么) and the character pairs reaching into those words', () => {
    const terms = matchQuery('刚装好的 TeX Live 为什么还要马上升级宏包')!.split(' OR ');
    expect(terms).toEqual(expect.arrayContaining(['"升级"', '"宏包"', '"tex"', '"live"', '"马上"']));
    for (const asked of ['"为什么"', '"什么"', '"为什"', '"么还"']) expect(terms).not.toContain(asked);
    // A question made only of such words still searches.
    expect(matchQuery('为什么')).not.toBeNull();
  });

  it('indexes a file name or host joined by dots also as its parts, so its words find it', () => {
    expect(segmentForIndex('执行 Z:\\install-tl-windows.bat --no-gui').split(' ')).toEqual(expect.arrayContaining(['windows.bat', 'windows', 'bat', 'gui']));
    expect(segmentForIndex('Fudan University’s template').split(' ')).toEqual(expect.arrayContaining(['university’s', 'university']));
    // Version numbers and section numbers are not split into digits.
    expect(segmentForIndex('v0.4 3.1节').split(' ')).not.toContain('4');
  });

  it("indexes a word a footnote's number runs into also as the word, so the footnote is found by it", () => {
    // The foot of install-guide's page 22: "5gedit默认使用UTF-8编码" (footnote 5).
    expect(segmentForIndex('5gedit默认使用UTF-8编码').split(' ')).toEqual(expect.arrayContaining(['5gedit', 'gedit']));
    expect(segmentForIndex('2sudo tlmgr无法使用').split(' ')).toEqual(expect.arrayContaining(['sudo', 'tlmgr']));
    // Names with digits of their own, and short units, stay whole.
    expect(segmentForIndex('3d 2nd 12ml').split(' ')).toEqual(['3d', '2nd', '12ml']);
  });

  it("indexes a name joined by '_' (an SDF field, an option) also as its parts, so a question's words find it", () => {
    const words = segmentForIndex('r_mmffld_RMS_Derivative-OPLS_2005: 0.000213629').split(' ');
    expect(words).toEqual(expect.arrayContaining(['r_mmffld_rms_derivative', 'mmffld', 'rms', 'derivative', 'opls']));
    // One letter and bare numbers are not words of their own.
    expect(words).not.toContain('r');
    expect(words).not.toContain('2005');
    expect(segmentForIndex('desktop_integration').split(' ')).toEqual(expect.arrayContaining(['desktop_integration', 'desktop', 'integration']));
  });
});

/**
 * Each question's passage (rowid of `docs`) ranks first in an FTS5 table of `docs` when the
 * question is expanded with the lexicon, and not with its own words alone.
 */
function expectFoundOnlyExpanded(docs: string[], cases: Array<[string, number]>) {
  const ranked = ftsOf(docs);
  const top = (q: string, expand: boolean) => ranked(queryTerms(q, { expand }).join(' OR '))[0];
  for (const [question, page] of cases) {
    expect(top(question, true), question).toBe(page);
    expect(top(question, false), question).not.toBe(page);
  }
}

/** An FTS5 table of `docs` (rowid 1, 2, …, segmented as the index is), and its ranking of a MATCH query. */
function ftsOf(docs: string[]) {
  const db = new SQLite(':memory:');
  db.exec(`create virtual table f using fts5(t, tokenize='unicode61 remove_diacritics 2')`);
  docs.forEach((d, i) => db.prepare('insert into f(rowid, t) values (?, ?)').run(i + 1, segmentForIndex(d)));
  return (match: string | null) => (db.prepare('select rowid from f where f match ? order by bm25(f)').all(match) as Array<{ rowid: number }>).map((r) => r.rowid);
}

describe('BM25 over the segmented text (FTS5)', () => {
  const ranked = ftsOf([
    '布洛芬是一种非甾体抗炎药，用于缓解疼痛。',
    '本品含布地奈德，可缓解哮喘；辅料含芬太尼之外的成分。',
    '阿司匹林（CAS 50-78-2）的 SMILES 是 CC(=O)Oc1ccccc1C(=O)O。',
    '对乙酰氨基酚的 SMILES 是 CC(=O)Nc1ccc(O)cc1。',
  ]);
  const top = (q: string) => ranked(matchQuery(q));

  it('ranks the passage with the whole drug name first', () => {
    expect(top('布洛芬')[0]).toBe(1);
  });

  it('finds a compound by CAS number and by exact SMILES', () => {
    expect(top('50-78-2')).toEqual([3]);
    expect(top('CC(=O)Nc1ccc(O)cc1')).toEqual([4]);
  });
});

describe('query expansion with the lexicon (text/synonyms.ts)', () => {
  it('finds the equivalents of a question word, Chinese and English, and nothing for other words', () => {
    const alts = alternativesOf('怎样把仓库换成国内镜像');
    expect(alts.get('仓库')).toContain('repository');
    expect(alts.get('镜像')).toContain('mirror');
    // A plural finds its singular's entry (under the stem the question asks for).
    expect(alternativesOf('Is this manual meant for beginners?').get('beginn')).toEqual(expect.arrayContaining(['newbie', 'starter']));
    expect(alternativesOf('布洛芬的剂量').size).toBe(0);
  });

  it('gives an English question English equivalents only: its words do not send it to Chinese pages', () => {
    // Read on the seventeenth fresh set: "references" found 参考文献 and ranked Chinese manuals
    // above the English template's page on .bib files.
    expect(alternativesOf('Is this manual meant for beginners?').get('beginn')).not.toContain('初学者');
    expect(alternativesOf('My references are split across several .bib files').get('refer') ?? []).not.toContain('参考文献');
    expect(alternativesOf('我的参考文献分成了几个 .bib 文件').get('参考文献')).toEqual(expect.arrayContaining(['bibliography', 'references']));
  });

  it('reads the Chinese names of symbols one way: 空集 finds varnothing, an English "in" or "cap" finds no Chinese', () => {
    expect(alternativesOf('想要斜线穿过圆圈的空集符号').get('空集')).toEqual(['emptyset', 'varnothing']);
    expect(alternativesOf('扑克牌的黑桃和红心怎么输入').get('黑桃')).toEqual(['spadesuit']);
    expect(alternativesOf('可以自动拉长的箭头').get('拉长')).toEqual(expect.arrayContaining(['extensible', '伸展']));
    expect(alternativesOf('对开发应用程序的人有什么好处').get('好处')).toEqual(expect.arrayContaining(['advantage', 'benefit']));
    expect(alternativesOf('目录、套接字、设备文件也有 MIME 类型吗').get('套接')).toEqual(['socket', 'sockets']);
    expect(alternativesOf('碰到一个拼写正确的单词').get('拼写')).toContain('spelled');
    expect(alternativesOf('因违规被终止授权后怎样恢复').get('终止')).toEqual(expect.arrayContaining(['terminate', 'termination']));
    expect(alternativesOf('注册商标的圈 R 符号').get('注册')).toContain('textregistered');
    expect(queryTerms('表示因为和所以的 ∵ ∴ 怎么输入')).toEqual(expect.arrayContaining(['"because"', '"therefore"']));
    // The one-way names give nothing back: neither an English question's words nor, in a Chinese
    // question, the English word written as is.
    expect(alternativesOf('What is in the cap of the int field?').size).toBe(0);
    expect(alternativesOf('write the thesis online').size).toBe(0);
    expect(alternativesOf('公式里的 cap 是什么').get('cap')).toBeUndefined();
  });

  it('holds everyday wording said two ways: 失败 / 不成功, 网址 / 地址, 本机 / 本地', () => {
    expect(alternativesOf('为什么编译总是失败').get('失败')).toEqual(expect.arrayContaining(['不成功', 'fail']));
    expect(alternativesOf('官方网站的网址').get('网址')).toContain('地址');
    expect(alternativesOf('查看本机的设置').get('本机')).toContain('本地');
  });

  it('finds a passage that writes the symbol, the Latin name or the English word a question says in Chinese', () => {
    expectFoundOnlyExpanded(
      [
        'TeX 的版本号不断趋近于 π，当前为 3.141592653。',
        'TeX 的版本号不断增加。',
        '\\Alpha 等大写希腊字母不存在，直接输入拉丁字母 A。',
        '大写字母可以直接输入。',
        'Cache files have to be written atomically: write to a temporary name, then move over the old file.',
        'Files are written to the user directory.',
      ],
      [
        ['TeX 的版本号为什么越来越接近圆周率', 1],
        ['大写的阿尔法该怎么输入', 3],
        ['为什么缓存要先写到临时文件', 5],
      ],
    );
  });

  it('finds a passage that says after, stop or columns in the other words a question uses', () => {
    expectFoundOnlyExpanded(
      [
        '在 \\end{document} 之后的部分会被完全忽略。',
        '文档正文写在 document 环境中。',
        '若遇到错误或中断，可输入 Ctrl+C 以强制结束。',
        '运行 xelatex 编译文档。',
        '单双列混合或超过两列的分栏格式要用 multicol 宏包的多列环境。',
        '文章的版心宽度由文档类决定。',
      ],
      [
        ['写在 \\end{document} 后面的文字会怎样', 1],
        ['运行 xelatex 卡住了怎么强行停下来', 3],
        ['只有中间一段想分成三栏', 5],
      ],
    );
    // A licence printed in English answers a question asked in Chinese about it.
    expect(alternativesOf('手册采用的许可证').get('许可')).toEqual(expect.arrayContaining(['license', 'licence']));
    expect(alternativesOf('透明副本').get('副本')).toContain('copy');
    expect(alternativesOf('透明副本').get('透明')).toEqual(['transparent']);
    expect(alternativesOf('不透明的格式').get('不透明')).toContain('opaque');
    // 删掉 is 删除, 移除, remove.
    expect(alternativesOf('把 TeX Live 删掉').get('删掉')).toEqual(expect.arrayContaining(['删除', '移除', 'remove']));
  });

  it('finds an English passage on preserving a network location, a font catalogue or other languages from Chinese words (read on the twenty-first fresh set)', () => {
    expectFoundOnlyExpanded(
      [
        'You must preserve the network location given in the Document for public access to a Transparent copy.',
        'A font catalogue of LaTeX font packages, with a sample of each.',
        'collection-langeuropean: Other European languages; collection-langother: Other languages.',
        '旧的版本可以删除，也可以另外保存一份。',
      ],
      [
        ['原文档给出的网络地址必须保留吗', 1],
        ['有没有按字体分类收录的目录', 2],
        ['不算欧洲的其他语种归到哪里', 3],
      ],
    );
    // Display maths said another way, and a squiggly arrow named in words (twenty-second fresh set).
    expect([...alternativesOf('独立公式中间能留空行吗').values()].flat()).toContain('行间公式');
    expect([...alternativesOf('像波浪线一样的向右箭头').values()].flat()).toContain('rightsquigarrow');
    // A hooked arrow, "there is no" and a licence's aggregate named in words (twenty-third fresh set).
    expect([...alternativesOf('箭尾带个小钩子的向右箭头').values()].flat()).toContain('hookrightarrow');
    expect([...alternativesOf('不存在的符号').values()].flat()).toContain('nexists');
    expect([...alternativesOf('和其他作品汇编在一起').values()].flat()).toContain('aggregate');
    // A page layout's header lengths and a full-width full stop asked in Chinese (twenty-fifth fresh set).
    expect([...alternativesOf('页眉的高度是多少').values()].flat()).toEqual(expect.arrayContaining(['headheight', 'headsep']));
    expect([...alternativesOf('把句号换成全角的点').values()].flat()).toEqual(expect.arrayContaining(['stop', 'fullwidth']));
    // A reference's series and volume, and a licence's collection and extracted document, asked in Chinese (twenty-eighth fresh set).
    expect([...alternativesOf('被标为哪套丛书的第几卷').values()].flat()).toEqual(expect.arrayContaining(['series', 'volume']));
    expect([...alternativesOf('从合编的集子里单独抽出一篇').values()].flat()).toEqual(expect.arrayContaining(['collection', 'extract']));
    // A licence's copying in quantity and contacting the authors (thirty-first fresh set).
    expect([...alternativesOf('大批量分发前要不要联系作者').values()].flat()).toEqual(expect.arrayContaining(['quantity', 'contact']));
    // A double-headed arrow and the typewriter font named in words, "why must" and "added" said
    // otherwise than the version history writes them (thirty-fourth fresh set).
    expect([...alternativesOf('两头都带箭头的长箭头').values()].flat()).toContain('overleftrightarrow');
    expect([...alternativesOf('排成打字机那种字体').values()].flat()).toEqual(expect.arrayContaining(['mathtt', 'texttt']));
    expect([...alternativesOf('为什么一定要升级，是从哪一版加进来的').values()].flat()).toEqual(expect.arrayContaining(['必要', '添加']));
    // Chinese font names over an English font table, odd pages and the default font (thirty-fifth fresh set).
    expect([...alternativesOf('两个选项用的仿宋是同一款字体').values()].flat()).toContain('stfangsong');
    expect([...alternativesOf('双面排版时奇数页的页眉').values()].flat()).toEqual(expect.arrayContaining(['odd', 'header']));
    expect([...alternativesOf('临时恢复成文档默认的字体').values()].flat()).toEqual(expect.arrayContaining(['normalfont', 'textnormal']));
    // Big operators, a licence's lending and display, and numbering that starts again (thirty-sixth fresh set).
    expect([...alternativesOf('大号的并集和交集').values()].flat()).toEqual(expect.arrayContaining(['bigcup', 'bigcap']));
    expect([...alternativesOf('能不能借给别人或者公开展示').values()].flat()).toEqual(expect.arrayContaining(['lend', 'display']));
    expect([...alternativesOf('每一节重新从 1 开始编号').values()].flat()).toContain('again');
    // Arrows pointing up or down a diagonal, named in words (thirty-seventh fresh set).
    expect([...alternativesOf('指向右上方和指向右下方的斜箭头').values()].flat()).toEqual(expect.arrayContaining(['nearrow', 'searrow']));
    // A licence's publisher and a class that loads a package, asked in Chinese (thirty-eighth fresh set).
    expect([...alternativesOf('许可证里说的出版者指什么人').values()].flat()).toContain('publisher');
    expect([...alternativesOf('模板是不是已经自动加载了 caption').values()].flat()).toEqual(expect.arrayContaining(['load', 'loaded']));
    // Triple and quadruple integrals named in words (thirty-ninth fresh set).
    expect([...alternativesOf('四重积分号和三重积分号').values()].flat()).toEqual(expect.arrayContaining(['iiiint', 'iiint']));
    // An English question's stereocentre is the record's chirality field.
    expect(alternativesOf('Which stereocentre label is recorded?').get('stereocentr')).toEqual(expect.arrayContaining(['chirality', 'chiral']));
  });

  it('reads 组合数 as the binomial, 速查表 as a cheat sheet, and Chinese words for a licence or a collection printed in English', () => {
    expect(alternativesOf('从 n 个里取 k 个的组合数').get('组合')).toEqual(expect.arrayContaining(['二项式', 'binomial']));
    expect(alternativesOf('有没有命令速查表').get('速查')).toEqual(expect.arrayContaining(['cheat', 'cheatsheet']));
    expect(alternativesOf('和别人的独立作品一起发布').get('独立')).toContain('independent');
    expect(alternativesOf('和别人的独立作品一起发布').get('作品')).toEqual(['works']);
    expect(alternativesOf('数学和自然科学方面的宏包').get('数学')).toEqual(['mathematics']);
    // English questions are not sent to Chinese pages for an everyday word such as computer.
    expect([...alternativesOf('without installing the template on my computer').keys()]).not.toContain('comput');
    expect(alternativesOf('without installing the template on my computer').get('instal')).toEqual(['installation']);
  });

  it('reads the wording of a TeX Live collection list, display maths and MIME magic', () => {
    expect(alternativesOf('TeX 的各种辅助程序').get('辅助')).toEqual(['auxiliary']);
    expect(alternativesOf('中日韩文字的基础支持').get('中日')).toEqual(['cjk']);
    expect(alternativesOf('公式单独占一行居中显示，后面不要编号').get('单独')).toEqual(expect.arrayContaining(['行间', 'display']));
    expect(alternativesOf('公式单独占一行居中显示，后面不要编号').get('编号')).toContain('unnumbered');
    expect(alternativesOf('throw away all the content-sniffing rules').get('snif')).toContain('magic');
    // 单独 alone is not display maths.
    expect(alternativesOf('单独安装一个宏包').get('单独')).toBeUndefined();
  });

  it('reads additional styles, bold, a free-font survey, sans-serif and monospaced fonts, and file-name globs', () => {
    expect(alternativesOf('想要更多额外的 BibTeX 参考文献样式').get('额外')).toEqual(expect.arrayContaining(['additional', 'extra']));
    expect(alternativesOf('想要更多额外的 BibTeX 参考文献样式').get('样式')).toContain('styles');
    expect(alternativesOf('每一项开头是一个加粗的词').get('加粗')).toEqual(expect.arrayContaining(['粗体', 'bold']));
    expect(alternativesOf('盘点各种免费数学字体').get('盘点')).toContain('survey');
    expect(alternativesOf('盘点各种免费数学字体').get('免费')).toEqual(['free']);
    expect(alternativesOf('无衬线和等宽字体用哪款，是商业字体吗').get('衬线')).toEqual(['sans']);
    expect(alternativesOf('无衬线和等宽字体用哪款，是商业字体吗').get('等宽')).toContain('monospaced');
    expect(alternativesOf('无衬线和等宽字体用哪款，是商业字体吗').get('商业')).toContain('commercial');
    expect(alternativesOf('按文件名匹配不上').get('文件')).toEqual(expect.arrayContaining(['filename', 'glob']));
    // An English question about matching is not sent to Chinese pages.
    expect([...alternativesOf('which matching syntax is a pattern interpreted with').keys()]).not.toContain('match');
  });

  it('reads a whole document, utility programs, Japanese, over- and underlines, perpendicular and parallel, a standard and a QED mark', () => {
    expect(alternativesOf('整篇文章从头到尾都排成两栏').get('整篇')).toContain('全文');
    expect(alternativesOf('字体处理的工具程序').get('工具')).toEqual(expect.arrayContaining(['utilities', 'tools']));
    expect(alternativesOf('想排日文').get('日文')).toContain('japanese');
    expect(alternativesOf('数字上面画一道横线').get('横线')).toEqual(expect.arrayContaining(['overline', 'underline']));
    expect(alternativesOf('两条直线互相垂直和平行').get('垂直')).toContain('perp');
    expect(alternativesOf('两条直线互相垂直和平行').get('平行')).toEqual(['parallel']);
    expect(alternativesOf('这个规范想统一成标准做法').get('统一')).toContain('unified');
    expect(alternativesOf('证明结尾的黑色小方块').get('方块')).toContain('qed');
    // A line under a word is not an overline.
    expect(alternativesOf('下划线').get('下划')).toEqual(expect.arrayContaining(['underline']));
    expect(alternativesOf('下划线').get('下划')).not.toContain('overline');
  });

  it('reads fractions, roots, recommended packages, an introduction, pinyin, conflicts and precedence', () => {
    expect(alternativesOf('矩阵里的元素是分数时被压得很小').get('分数')).toEqual(expect.arrayContaining(['分式', 'frac']));
    // A cube root is asked for by its own word; the page says 根式 and \sqrt.
    expect(alternativesOf('2 的立方根怎么输入').get('立方根')).toEqual(expect.arrayContaining(['根式', 'sqrt']));
    expect(alternativesOf('推荐使用的字体').get('推荐')).toEqual(['recommended']);
    expect(alternativesOf('英文版的入门小册子').get('入门')).toContain('introduction');
    expect(alternativesOf('英文名可以直接填汉语拼音吗').get('拼音')).toContain('pinyin');
    expect(alternativesOf('信息互相冲突时以哪个为准').get('冲突')).toContain('conflicting');
    expect(alternativesOf('信息互相冲突时以哪个为准').get('为准')).toContain('precedence');
    // An English question asking for precedence has no English equivalent to search for.
    expect(alternativesOf('which directory takes precedence').get('preced')).toBeUndefined();
  });

  it('reads icons, generic, and a vertical bar', () => {
    expect(alternativesOf('文件类型用哪个图标').get('图标')).toEqual(['icon']);
    expect(alternativesOf('几种相近的文件共用一个通用图标').get('通用')).toEqual(['generic']);
    expect(alternativesOf('绝对值两边的竖线怎么写').get('竖线')).toEqual(['vert']);
    // A vertical bar is not a horizontal line.
    expect(alternativesOf('绝对值两边的竖线怎么写').get('竖线')).not.toContain('overline');
  });

  it('keeps code a question writes as one word beside its words, and says which words are such code', () => {
    expect(queryTerms('\\twocolumn[...] 套 @twocolumnfalse')).toEqual(expect.arrayContaining(['"twocolumn"', '"twocolumnfals"']));
    const code = codeTokens('\\twocolumn[...] 套 @twocolumnfalse');
    expect(code.size).toBe(2);
    for (const w of code) expect(queryTerms('\\twocolumn[...] 套 @twocolumnfalse')).toContain(`"${w}"`);
    // A SMILES is a molecule, not code written in one's own way.
    expect(codeTokens('CC(=O)Oc1ccccc1C(=O)O 的溶解度').size).toBe(0);
  });

  it('reads a pasted symbol as the LaTeX commands that write it (the index keeps no symbols)', () => {
    expect(queryTerms('x ↦ f(x) 这个箭头怎么打')).toContain('"mapsto"');
    expect(queryTerms('≤ 用什么命令')).toEqual(expect.arrayContaining(['"leq"', '"le"']));
    // Before NFKC, which would turn ℓ into a plain l.
    expect(queryTerms('ℓ 怎么写')).toContain('"ell"');
    // A question made of a symbol alone still asks for something.
    expect(queryTerms('↦')).toEqual(['"mapsto"']);
    // Letters of other languages are written with commands too (å is \\aa, ß is \\ss), and the end-of-proof mark.
    expect(queryTerms('字母 å 怎么打')).toContain('"aa"');
    expect(queryTerms('德语的 ß')).toContain('"ss"');
    expect(queryTerms('证明后面的 ∎')).toContain('"qed"');
    // Semidirect products and "defined as" (twenty-fourth fresh set).
    expect(queryTerms('半直积 ⋉ 和 ⋊')).toEqual(expect.arrayContaining(['"ltimes"', '"rtimes"']));
    expect(queryTerms('≜ 怎么打')).toContain('"triangleq"');
    expect([...alternativesOf('群论里的半直积符号').values()].flat()).toContain('rtimes');
    // Less-or-greater stacked (twenty-fifth fresh set).
    expect(queryTerms('≶ 用什么命令')).toContain('"lessgtr"');
    // A surjection's two-headed arrow and a dashed arrow.
    expect(queryTerms('满射的 ↠ 怎么打')).toContain('"twoheadrightarrow"');
    expect(queryTerms('虚线箭头 ⇢')).toContain('"dashrightarrow"');
    expect(queryTerms('布洛芬的剂量').some((t) => /mapsto|leq/.test(t))).toBe(false);
    // The rest of Unicode's math symbols, under unicode-math's names (twenty-sixth fresh set).
    expect(queryTerms('∋ 用什么命令')).toContain('"ni"');
    expect(queryTerms('斜着写的 ⩽')).toContain('"leqslant"');
    expect(queryTerms('补集 ∁')).toContain('"complement"');
    // Where amssymb names a symbol otherwise than unicode-math (↺: circlearrowleft, not acwopencirclearrow), the list says so.
    expect(queryTerms('逆时针的 ↺')).toContain('"circlearrowleft"');
    // amssymb's shapes and card suits, which running text does not use as bullets (thirtieth fresh set).
    expect(queryTerms('实心的五角星 ★')).toContain('"bigstar"');
    expect(queryTerms('黑桃 ♠')).toContain('"spadesuit"');
    expect(queryTerms('英镑符号 £ 和段落符号 ¶')).toEqual(expect.arrayContaining(['"pounds"', '"textparagraph"']));
    // Letterlike symbols of classic LaTeX, which unicode-math's table of relations and operators leaves out (thirty-fifth fresh set).
    expect(queryTerms('魏尔斯特拉斯椭圆函数的花写 p（℘）')).toContain('"wp"');
    expect(queryTerms('实部 ℜ 和虚部 ℑ')).toEqual(expect.arrayContaining(['"re"', '"im"']));
    // Text bullets; a middle dot joining a name's parts or a hydrate's is no symbol asked about.
    expect(queryTerms('正文里的“·”和“•”')).toEqual(expect.arrayContaining(['"textperiodcentered"', '"textbullet"']));
    expect(queryTerms('约翰·史密斯的书').some((t) => /cdot|textperiodcentered/.test(t))).toBe(false);
    expect(queryTerms('CuSO4·5H2O 的溶解度').some((t) => /cdot|textperiodcentered/.test(t))).toBe(false);
  });

  it('reads the longest Chinese term first (行间距 is not also 行距)', () => {
    expect(alternativesOf('行间距')).toEqual(new Map([['行间', ['行距']], ['间距', ['行距']]]));
    // The index query holds the equivalents' tokens only when asked to.
    expect(queryTerms('升级宏包')).not.toContain('"update"');
    expect(queryTerms('升级宏包', { expand: true })).toEqual(expect.arrayContaining(['"升级"', '"宏包"', '"updat"', '"更新"', '"packag"']));
  });
});
