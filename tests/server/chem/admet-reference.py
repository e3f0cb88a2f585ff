#!/usr/bin/python3
"""Reference values for the ADMET tests, computed by Debian's python3-rdkit (an independent build of
RDKit with its FilterCatalog and the SA_Score contribution). Reads a JSON list of SMILES on stdin,
writes a JSON list of objects (null for a SMILES RDKit cannot read)."""
import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import Crippen, QED, rdMolDescriptors as rd
from rdkit.Chem.FilterCatalog import FilterCatalog, FilterCatalogParams

sys.path.append('/usr/share/RDKit/Contrib/SA_Score')
import sascorer  # noqa: E402

RDLogger.DisableLog('rdApp.*')


def catalog(which):
    params = FilterCatalogParams()
    params.AddCatalog(which)
    return FilterCatalog(params)


PAINS = catalog(FilterCatalogParams.FilterCatalogs.PAINS)
BRENK = catalog(FilterCatalogParams.FilterCatalogs.BRENK)


def family(description):
    # FilterCatalog names PAINS entries "family(count)", as wehi_pains.csv's regId does.
    return description.rsplit('(', 1)[0] if description.endswith(')') else description


out = []
for smiles in json.load(sys.stdin):
    m = Chem.MolFromSmiles(smiles)
    if m is None:
        out.append(None)
        continue
    out.append({
        'wlogp': Crippen.MolLogP(m),
        'mr': Crippen.MolMR(m),
        'tpsa': rd.CalcTPSA(m),
        # force: RDKit caches the N,O contributions of the call before.
        'tpsa_sp': rd.CalcTPSA(m, force=True, includeSandP=True),
        'qed': QED.qed(m),
        'hba': rd.CalcNumHBA(m),
        'hbd': rd.CalcNumHBD(m),
        'rotatable_bonds': rd.CalcNumRotatableBonds(m),
        'fraction_csp3': rd.CalcFractionCSP3(m),
        'heavy_atoms': m.GetNumHeavyAtoms(),
        'mw': rd._CalcMolWt(m),
        'sa_score': sascorer.calculateScore(m),
        'pains': sorted({family(e.GetDescription()) for e in PAINS.GetMatches(m)}),
        'brenk': sorted({e.GetDescription() for e in BRENK.GetMatches(m)}),
    })
json.dump(out, sys.stdout)
