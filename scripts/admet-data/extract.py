#!/usr/bin/python3
"""Regenerates the ADMET data files of src/server/chem/data from Debian's rdkit-data and python3-rdkit.

Run with Debian's interpreter (it has rdkit): /usr/bin/python3 scripts/admet-data/extract.py
Each output names its source and licence in its `source` field; see src/server/chem/data/README.md.
"""
import csv
import gzip
import json
import pickle
import re
import sys
from pathlib import Path

import rdkit
from rdkit import Chem
from rdkit.Chem import FilterCatalog, QED

OUT = Path(__file__).resolve().parents[2] / 'src' / 'server' / 'chem' / 'data'
RDKIT_DATA = Path('/usr/share/RDKit')


def write(name, payload):
    (OUT / name).write_text(json.dumps(payload, ensure_ascii=False, separators=(',', ':')) + '\n')


def pains():
    families = []
    with open(RDKIT_DATA / 'Data/Pains/wehi_pains.csv', newline='') as f:
        for smarts, reg in csv.reader(f):
            m = re.match(r'<regId=(.+)\((\d+)\)>', reg)
            families.append({'family': m.group(1), 'smarts': smarts})
    assert len(families) == 480, len(families)
    write('pains.json', {
        'source': 'Baell & Holloway, J. Med. Chem. 53 (2010) 2719-2740, as SMARTS by Saubern, Guha & Baell, Mol. Inf. 30 (2011) 847-850; '
                  'file Data/Pains/wehi_pains.csv of RDKit (Debian rdkit-data %s)' % rdkit.__version__,
        'licence': 'BSD-3-Clause (RDKit)',
        'families': families,
    })


def brenk():
    params = FilterCatalog.FilterCatalogParams()
    params.AddCatalog(FilterCatalog.FilterCatalogParams.FilterCatalogs.BRENK)
    catalog = FilterCatalog.FilterCatalog(params)
    alerts = []
    for i in range(catalog.GetNumEntries()):
        entry = catalog.GetEntryWithIdx(i)
        name = entry.GetDescription()
        blob = entry.Serialize()
        # Boost text archive: "<len> <description> <len> <pickled pattern> <min count> <max count> ..."
        start = blob.index(('%d %s ' % (len(name.encode()), name)).encode()) + len(str(len(name.encode()))) + 2 + len(name.encode())
        space = blob.index(b' ', start)
        size = int(blob[start:space])
        pattern = Chem.Mol(blob[space + 1:space + 1 + size])
        counts = blob[space + 1 + size:].split()
        alerts.append({'name': name, 'smarts': Chem.MolToSmarts(pattern), 'minCount': int(counts[0])})
    assert len(alerts) == 105, len(alerts)
    write('brenk.json', {
        'source': 'Brenk et al., ChemMedChem 3 (2008) 435-444, unwanted substructures as compiled into RDKit\'s FilterCatalog (BRENK), '
                  'extracted from Debian python3-rdkit %s' % rdkit.__version__,
        'licence': 'BSD-3-Clause (RDKit)',
        'alerts': alerts,
    })


def qed():
    params = {k: list(v) for k, v in QED.adsParameters.items()}
    write('qed.json', {
        'source': 'Bickerton et al., Nature Chem. 4 (2012) 90-98: ADS parameters, mean weights, acceptor and structural-alert SMARTS '
                  'as in RDKit\'s Chem/QED.py (Debian python3-rdkit %s)' % rdkit.__version__,
        'licence': 'BSD-3-Clause (RDKit)',
        'properties': list(QED.QEDproperties._fields),
        'weights': list(QED.WEIGHT_MEAN),
        'ads': params,
        'acceptors': QED.AcceptorSmarts,
        'alerts': QED.StructuralAlertSmarts,
    })


def sa():
    data = pickle.load(gzip.open(RDKIT_DATA / 'Contrib/SA_Score/fpscores.pkl.gz'))
    groups = []
    for row in data:
        ids = sorted(int(x) for x in row[1:])
        deltas = [ids[0]] + [b - a for a, b in zip(ids, ids[1:])]
        groups.append([float(row[0]), deltas])
    payload = {
        'source': 'Ertl & Schuffenhauer, J. Cheminf. 1 (2009) 8: fragment scores (Morgan radius-2 environment id -> score), '
                  'file Contrib/SA_Score/fpscores.pkl.gz of RDKit (Debian rdkit-data %s); ids delta-encoded per score' % rdkit.__version__,
        'licence': 'BSD-3-Clause (RDKit Contrib/SA_Score, Novartis)',
        'groups': groups,
    }
    with gzip.open(OUT / 'sa-fpscores.json.gz', 'wt') as f:
        json.dump(payload, f, separators=(',', ':'))


if __name__ == '__main__':
    OUT.mkdir(parents=True, exist_ok=True)
    pains()
    brenk()
    qed()
    sa()
    print('wrote', ', '.join(sorted(p.name for p in OUT.iterdir())), file=sys.stderr)
