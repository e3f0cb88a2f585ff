import { addHostStrings } from '../i18n';

// This page's strings, added to the site's `host` namespace when the page's chunk loads, so they
// stay out of the home page's first load.
addHostStrings(
  {
    pdf_viewer: {
      title: '文档查看',
      sdf: 'SDF 分子文件',
      pdb: 'PDB 结构文件',
      download: '下载',
      view_3d: '3D 结构',
      showing: '3D 显示第 {{idx}} 个分子：{{name}}',
      molecules: '分子列表',
      count: '（共 {{count}} 个）',
      no_molecules: '这个文件中没有读到分子',
      list_failed: '分子列表加载失败，请刷新重试',
      unnamed: '未命名',
      more: '显示更多（还有 {{count}} 个）',
      web_page: '网页',
      open_source: '打开原网页',
      fetched_at: '抓取于 {{time}}',
      text_failed: '网页内容加载失败，请刷新重试',
    },
  },
  {
    pdf_viewer: {
      title: 'Document viewer',
      sdf: 'SDF molecule file',
      pdb: 'PDB structure file',
      download: 'Download',
      view_3d: '3D structure',
      showing: 'Showing molecule {{idx}} in 3D: {{name}}',
      molecules: 'Molecules',
      count: '({{count}} in all)',
      no_molecules: 'No molecules were read from this file',
      list_failed: 'Could not load the molecule list; refresh to retry',
      unnamed: 'Unnamed',
      more: 'Show more ({{count}} left)',
      web_page: 'Web page',
      open_source: 'Open the original page',
      fetched_at: 'Fetched {{time}}',
      text_failed: 'Could not load the page text; refresh to retry',
    },
  },
);
