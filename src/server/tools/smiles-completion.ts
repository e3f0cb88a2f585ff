import { smilesCompletionInput, smilesCompletionOutput, type SmilesCompletionInput, type SmilesCompletionOutput } from '../../contract/names';
import { completeSmiles } from './names/completion';
import { defineTool, type Tool } from './types';

/** SPEC §9 smiles_completion. */
export const smilesCompletionTool = defineTool('smiles_completion', ({ chem }): Tool<SmilesCompletionInput, SmilesCompletionOutput> => ({
  input: smilesCompletionInput,
  output: smilesCompletionOutput,
  description:
    '补全或修正不完整、有错误的 SMILES（未闭合的环或支链、方括号不配对、不能成芳香环的小写原子、带 * 连接点的片段），最多给出 5 个经 RDKit 验证的规范分子及所做修改；有效的 SMILES 返回规范形式和 InChIKey。',
  availability: () => ({ enabled: true }),
  run: (input) => completeSmiles(input.smiles, chem),
  summarize: (out) =>
    [
      out.message,
      ...out.candidates.map((c, i) => `${i + 1}. ${c.smiles}${c.inchi_key ? `（InChIKey ${c.inchi_key}）` : ''}${c.changes.length ? `：${c.changes.join('；')}` : ''}`),
    ].join('\n'),
}));
