/** Strings every element may show (namespace `csai`). */
export const sharedStrings = {
  zh: { render_failed: '组件出错了，请刷新页面后重试' },
  en: { render_failed: 'Something went wrong in this component. Reload the page to try again.' },
};
