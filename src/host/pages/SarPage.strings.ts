import { addHostStrings } from '../i18n';

// This page's strings, added to the site's `host` namespace when the page's chunk loads.
addHostStrings(
  {
    sar: {
      title: '构效关系表',
      intro: '从文档的活性表格和正文中读到的化合物活性，按化合物编号与结构（文档中的结构或同一知识库中 SDF 的同名分子）对应。',
      loading: '正在读取…',
      empty: '这篇文档中没有读到带化合物编号的活性数据。',
      unlabelled: '另有 {{count}} 条活性数据没有标明化合物编号，未列入表中。',
      label: '编号',
      structure: '结构',
      no_structure: '未找到结构',
      page: '第 {{page}} 页',
      export_csv: '下载 CSV',
      export_sdf: '下载 SDF',
      back: '返回文档',
      open_sar: '构效关系表',
      review: '在第 {{page}} 页核对识别的结构',
      inhibition: '抑制率（%）',
      inhibition_at: '抑制率（%，{{concentration}}）',
    },
  },
  {
    sar: {
      title: 'Structure–activity table',
      intro: 'Compound activities read from the tables and text of this document, matched by compound label to structures (drawn in the document, or SDF molecules of the same name in the same knowledge base).',
      loading: 'Loading…',
      empty: 'No activities with compound labels were found in this document.',
      unlabelled: '{{count}} more activities name no compound and are not listed.',
      label: 'Label',
      structure: 'Structure',
      no_structure: 'No structure found',
      page: 'p. {{page}}',
      export_csv: 'Download CSV',
      export_sdf: 'Download SDF',
      back: 'Back to the document',
      open_sar: 'Structure–activity table',
      review: 'Check the structure recognised on p. {{page}}',
      inhibition: '% inhibition',
      inhibition_at: '% inhibition at {{concentration}}',
    },
  },
);
