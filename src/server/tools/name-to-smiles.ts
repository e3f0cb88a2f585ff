import { nameToSmilesInput, nameToSmilesOutput, nameSource, type NameSource, type NameToSmilesInput, type NameToSmilesOutput } from '../../contract/names';
import { defineTool, type NameResolver, type Tool } from './types';

const DESCRIPTION = '把化学名称转换为结构：系统命名（英文 IUPAC、CAS 索引名）由 OPSIN 解析，常见药物和试剂的商品名、俗名、中文名查内置词典；返回规范 SMILES 和 InChIKey，查不到时明确说明，绝不编造结构。';

/** Where a structure came from, in the words of the name card (src/widgets/channels/tool-cards/tool-cards.strings.ts). */
const SOURCE_NAMES: Record<NameSource, string> = {
  opsin: 'OPSIN 系统命名解析',
  dictionary: '内置药物与试剂词典',
  'model+opsin': '语言模型给出系统名，经 OPSIN 确认',
  pubchem: 'PubChem 查询服务',
};

/** Runs a name through the resolver and shapes the answer of the tool and of POST /mol/name_to_smiles. */
export async function nameToSmiles(names: NameResolver, input: NameToSmilesInput, signal: AbortSignal): Promise<NameToSmilesOutput> {
  const found = await names.resolve(input.name, signal);
  if (!found) {
    return { found: false, name: input.name, message: `未找到“${input.name}”对应的结构：系统命名解析、内置词典${names.availability().enabled ? '' : '（OPSIN 未安装）'}及已配置的查询服务均无结果` };
  }
  return {
    found: true,
    name: input.name,
    canonical_smiles: found.canonicalSmiles,
    inchi_key: found.inchiKey,
    source: nameSource.parse(found.source),
  };
}

/** SPEC §9 name_to_smiles. */
export const nameToSmilesTool = defineTool('name_to_smiles', ({ names }): Tool<NameToSmilesInput, NameToSmilesOutput> => {
  const opsin = names.availability();
  return {
    input: nameToSmilesInput,
    output: nameToSmilesOutput,
    description: DESCRIPTION,
    // Without OPSIN the dictionary still answers: the tool stays on, and its note (shown to
    // administrators in the tool list) says what is missing.
    availability: () => (opsin.enabled ? { enabled: true } : { enabled: true, note: `当前仅内置词典可用：${opsin.reason}` }),
    run: (input, ctx) => nameToSmiles(names, input, ctx.signal),
    summarize: (out) =>
      out.found ? `${out.name}：SMILES ${out.canonical_smiles}，InChIKey ${out.inchi_key}（来源：${SOURCE_NAMES[out.source]}）` : out.message,
    timeoutMs: 60_000,
  };
});
