import { ADMET_LIMITS, type AdmetMolecule } from '../../../contract/admet';
import type { ChemService } from '../service';
import { DomainError } from '../../errors';
import type { ChemErrorCode } from '../engine';
import type { AdmetItem } from './protocol';

/** Why an ADMET request is refused: no molecule, too many, or a molecule's chemistry code. */
type AdmetErrorCode = ChemErrorCode | 'empty' | 'too_many';

/** A molecule of the request the user must fix; the message is Chinese and names the molecule. */
export class AdmetInputError extends DomainError {
  constructor(
    message: string,
    code: AdmetErrorCode = 'invalid_smiles',
    /** The position of the refused molecule in the request, when one molecule is at fault. */
    readonly index?: number,
  ) {
    super(code, message, 'smiles');
    this.name = 'AdmetInputError';
  }
}

const shorten = (s: string, max = 40) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** Items of a list of SMILES strings (the HTTP API). */
export function smilesItems(smiles: string[]): AdmetItem[] {
  if (smiles.length === 0) throw new AdmetInputError('请至少提供 1 个分子', 'empty');
  if (smiles.length > ADMET_LIMITS.molecules) throw new AdmetInputError(`单次最多计算 ${ADMET_LIMITS.molecules} 个分子，请分批提交`, 'too_many');
  return smiles.map((s) => ({ input: { smiles: s.trim() }, label: s.trim(), name: '', source: 'smiles' }));
}

/**
 * The rows of the table, in the order given. Any molecule RDKit refuses makes the whole request
 * fail with its position and reason (nothing half-computed is returned).
 */
export async function admetRows(chem: ChemService, items: AdmetItem[]): Promise<AdmetMolecule[]> {
  const outcomes = await chem.admet(items);
  return outcomes.map((o, i) => {
    if (o.ok) return o.row;
    const label = items[i]!.label;
    throw new AdmetInputError(items.length > 1 ? `第 ${i + 1} 个分子（${shorten(label)}）：${o.message}` : o.message, o.code, i);
  });
}
