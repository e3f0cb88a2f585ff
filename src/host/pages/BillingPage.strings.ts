import { addHostStrings } from '../i18n';

// This page's strings, added to the site's `host` namespace when the page's chunk loads, so they
// stay out of the home page's first load.
addHostStrings(
  {
    billing: {
      title: '我的方案',
      current: '当前方案',
      free: '免费版',
      free_text: '您正在使用 CSAI 免费版，目前所有功能均可使用，无需付费。',
      included: '包含',
      items: ['智能问答、深度思考与深度研究', '个人与共享知识库', 'PDF、图片与分子文件解析', '化学结构绘制与结构式编辑器'],
      upgrade_note: '付费方案暂未开放，开放前不会产生任何费用。',
    },
  },
  {},
);
