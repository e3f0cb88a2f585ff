/** Strings of the SMILES completion hint under the question box (namespace `smiles-hint`). */
export const smilesHintStrings = {
  zh: {
    title: '输入的 SMILES 似乎不完整，可能是：',
    use: '使用 {{smiles}}',
    dismiss: '关闭建议',
  },
  en: {
    title: 'The SMILES you are typing looks incomplete. Did you mean:',
    use: 'Use {{smiles}}',
    dismiss: 'Close suggestions',
  },
};
