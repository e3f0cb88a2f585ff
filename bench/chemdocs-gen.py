#!/usr/bin/python3
"""Issue 28 §3: the chemistry-in-papers evaluation set, made on this machine from nothing downloaded.

Molecules: rdkit-data's NCI set (/usr/share/RDKit/Data/NCI/first_5K.smi), kept when drug-like in size
(one fragment, 12-40 heavy atoms, 150-600 Da, organic elements only) and sampled with a fixed seed
(nothing hand-picked). Each document is a paper-like page set (A4 or Letter): a title, body text, a grid
of 4-6 drawings each with its label ("化合物 12a" / "compound 7b") below or beside it, an activity table
(label × target measure, IC50/Ki/% inhibition, nM/μM, relations < > ~) and an activity sentence.
Drawings come from two toolkits (RDKit MolDraw2D, Open Babel's depiction) in four forms:
  vector    inline SVG printed to PDF by headless Chromium (paths, no images)
  raster    the same drawings as PNG pictures embedded in the PDF
  scan-pdf  the page rendered at 200 dpi, turned slightly, blurred, noised, JPEG'd: an image-only PDF
  scan-png  one page as such a scanned PNG (an image upload)
Documents are split by a seeded shuffle into a TUNING half and a HELD-OUT half (disjoint molecules).
Tune on tuning only; the held-out half is what `npm run bench -- chemdocs` reports.

Ground truth (DIR/<half>/truth.json): per document and page, each molecule's InChIKey, SMILES, label and
bbox, each activity row. Boxes are [x0, y0, x1, y1] with the origin bottom-left: PDF points for PDFs,
the image's pixels for PNGs (as parsing/image.ts maps OCR boxes).

Standalone: /usr/bin/python3 bench/chemdocs-gen.py OUTDIR [--half tuning|held-out|timing|all]
(needs python3-rdkit, rdkit-data, openbabel, chromium, poppler-utils, python3-numpy; ~1-2 min).
InChIKeys are computed as the product computes them (@rdkit/rdkit, bench/chemdocs-keys.mjs).
"""
import argparse
import base64
import hashlib
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

VERSION = 1
SEED = 2826
NCI = '/usr/share/RDKit/Data/NCI/first_5K.smi'
DOCS = 24  # 12 a half
PAPER = {'A4': (594.96, 841.92), 'Letter': (612.0, 792.0)}
FORMS = ['vector', 'raster', 'scan-pdf', 'scan-png']
TOOLKITS = ['rdkit', 'obabel']
TARGETS = ['CDK2', 'EGFR', 'BRAF', 'JAK2', 'PI3Kα', 'HDAC6', 'BTK', 'PARP1', 'MEK1', 'ALK', 'c-Met', 'FGFR1']
ORGANIC = {'C', 'N', 'O', 'S', 'F', 'Cl', 'Br', 'I', 'P'}
SCAN_DPI = 200


HERE = os.path.dirname(os.path.abspath(__file__))


def inchikeys(smiles):
    """InChIKeys as the product computes them (@rdkit/rdkit via bench/chemdocs-keys.mjs; Debian's RDKit has no InChI)."""
    r = subprocess.run(['node', os.path.join(HERE, 'chemdocs-keys.mjs')], input=''.join(s + '\n' for s in smiles), capture_output=True, text=True, check=True)
    keys = r.stdout.split('\n')[:len(smiles)]
    if len(keys) != len(smiles):
        raise RuntimeError('chemdocs-keys.mjs gave too few keys')
    return keys


def pool():
    """Every drug-like NCI molecule, in file order, unique by InChIKey."""
    from rdkit import Chem, RDLogger
    from rdkit.Chem import Descriptors
    RDLogger.DisableLog('rdApp.*')
    seen, kept = set(), []
    with open(NCI) as f:
        for line in f:
            smi = line.split()[0] if line.strip() else ''
            m = Chem.MolFromSmiles(smi) if smi else None
            if m is None or len(Chem.GetMolFrags(m)) != 1:
                continue
            heavy = m.GetNumHeavyAtoms()
            mw = Descriptors.MolWt(m)
            if not (12 <= heavy <= 40 and 150 <= mw <= 600):
                continue
            if any(a.GetSymbol() not in ORGANIC or a.GetNumRadicalElectrons() or a.GetIsotope() for a in m.GetAtoms()):
                continue
            if m.GetRingInfo().NumRings() == 0:
                continue
            can = Chem.MolToSmiles(m)
            if can in seen:
                continue
            seen.add(can)
            kept.append(can)
    out, keys_seen = [], set()
    for can, key in zip(kept, inchikeys(kept)):
        if key and key not in keys_seen:
            keys_seen.add(key)
            out.append((can, key))
    return out


# ---------------------------------------------------------------- drawings

def rdkit_svg(smiles, w, h):
    from rdkit import Chem
    from rdkit.Chem.Draw import rdMolDraw2D
    m = Chem.MolFromSmiles(smiles)
    d = rdMolDraw2D.MolDraw2DSVG(int(w), int(h))
    d.drawOptions().clearBackground = False
    rdMolDraw2D.PrepareAndDrawMolecule(d, m)
    d.FinishDrawing()
    return d.GetDrawingText()


def rdkit_png(smiles, w, h):
    from rdkit import Chem
    from rdkit.Chem.Draw import rdMolDraw2D
    m = Chem.MolFromSmiles(smiles)
    d = rdMolDraw2D.MolDraw2DCairo(int(w), int(h))
    rdMolDraw2D.PrepareAndDrawMolecule(d, m)
    d.FinishDrawing()
    return d.GetDrawingText()


def obabel(smiles, fmt, size=None):
    args = ['obabel', '-:' + smiles, '-o' + fmt, '-xd']
    if size:
        args += ['-xp', str(size)]
    r = subprocess.run(args, capture_output=True, check=True)
    return r.stdout


def svg_inline(svg, w, h):
    """An SVG document as an inline <svg> element of w × h points."""
    text = svg.decode() if isinstance(svg, bytes) else svg
    text = re.sub(r'<\?xml[^>]*\?>', '', text)
    text = re.sub(r'<!--.*?-->', '', text, flags=re.S)
    text = re.sub(r'<title>.*?</title>', '', text, flags=re.S)

    def size(m):
        tag = m.group(0)
        tag = re.sub(r'\swidth=["\'][^"\']*["\']', '', tag, count=1)
        tag = re.sub(r'\sheight=["\'][^"\']*["\']', '', tag, count=1)
        return tag[:-1] + f' width="{w}pt" height="{h}pt" preserveAspectRatio="xMidYMid meet">'
    return re.sub(r'<svg[^>]*>', size, text, count=1).strip()


def drawing_html(smiles, toolkit, form, w, h):
    if form == 'vector':
        svg = rdkit_svg(smiles, w * 4 / 3, h * 4 / 3) if toolkit == 'rdkit' else obabel(smiles, 'svg')
        return svg_inline(svg, w, h)
    # Raster pictures at about 200-300 dpi at their printed size.
    px_w, px_h = int(w * 250 / 72), int(h * 250 / 72)
    if toolkit == 'rdkit':
        png = rdkit_png(smiles, px_w, px_h)
    else:
        png = obabel(smiles, 'png', max(px_w, px_h))
    b64 = base64.b64encode(png).decode()
    return f'<img src="data:image/png;base64,{b64}" style="width:{w}pt;height:{h}pt;object-fit:contain">'


# ---------------------------------------------------------------- text

def fmt_value(v, unit):
    if unit == 'nM':
        return f'{v:.0f}' if v >= 10 else f'{v:.1f}'
    if unit == 'μM':
        return f'{v:.2g}' if v < 100 else f'{v:.0f}'
    return f'{v:.0f}'


def activity(rng, unit):
    """(relation, value, valueNm) on a log scale from 0.3 nM to 60 μM."""
    nm = 10 ** rng.uniform(math.log10(0.3), math.log10(60000))
    r = rng.random()
    relation = '=' if r < 0.84 else ('>' if r < 0.92 else ('<' if r < 0.97 else '~'))
    if relation == '>':
        nm = rng.choice([1000, 10000, 50000])
    if relation == '<':
        nm = rng.choice([1, 5, 10])
    value = nm if unit == 'nM' else nm / 1000
    value = float(fmt_value(value, unit))
    return relation, value, value * (1 if unit == 'nM' else 1000)


def cell_text(relation, value, unit, with_unit):
    rel = '' if relation == '=' else relation + ' '
    return f'{rel}{fmt_value(value, unit)}' + (f' {unit}' if with_unit else '')


ZH_BODY = [
    '为考察{core}位取代基对活性的影响，我们合成了化合物 {first}–{last}，并测定了其对 {target} 的抑制活性（表 {t}）。',
    '在初步筛选中，含有芳杂环的衍生物普遍表现出较好的酶抑制活性，构效关系分析见下文。',
    '所有化合物均经 ¹H NMR、¹³C NMR 和 HRMS 表征，纯度经 HPLC 测定均大于 95%。',
    '与阳性对照相比，部分化合物在细胞水平上同样显示出明显的抗增殖活性。',
]
EN_BODY = [
    'To probe the effect of the substituent at position {core}, compounds {first}–{last} were prepared and tested against {target} (Table {t}).',
    'In the primary screen most heteroaryl analogues inhibited the enzyme; the structure–activity relationships are discussed below.',
    'All compounds were characterised by ¹H NMR, ¹³C NMR and HRMS; purity was above 95% by HPLC.',
    'Several compounds were also antiproliferative in cells, in line with their enzymatic potency.',
]


def label_text(lang, key):
    return f'化合物 {key}' if lang == 'zh' else f'compound {key}'


# ---------------------------------------------------------------- layout

def make_document(rng, name, form, toolkit, mols, pages_n, out_dir, work):
    lang = rng.choice(['zh', 'en'])
    paper = rng.choice(['A4', 'Letter'])
    W, H = PAPER[paper]
    label_pos = rng.choice(['below', 'below', 'right'])
    series = rng.randint(2, 40)
    prime = rng.random() < 0.2
    sub50 = rng.random() < 0.35
    unit_in_header = rng.random() < 0.5
    targets = rng.sample(TARGETS, 2)
    columns = [(targets[0], 'IC50', rng.choice(['nM', 'μM']))]
    r = rng.random()
    if r < 0.45:
        columns.append((targets[1], 'Ki', rng.choice(['nM', 'μM'])))
    elif r < 0.7:
        columns.append((targets[0], 'inhibition', '%'))
    letters = 'abcdefghijklmnopqrstuvwxyz'
    doc = {'name': name, 'form': form, 'toolkit': toolkit, 'lang': lang, 'paper': paper, 'labelPosition': label_pos, 'pages': []}
    html_pages = []
    k = 0
    for p in range(pages_n):
        count = len(mols[p])
        margin = 54.0
        y = margin
        parts = []
        page = {'page': p + 1, 'width': W, 'height': H, 'molecules': [], 'activities': []}

        def box(x, top, w, h):
            return [round(x, 2), round(H - top - h, 2), round(x + w, 2), round(H - top, 2)]
        title = (f'{targets[0]} 抑制剂的设计、合成与构效关系研究（{name}）' if lang == 'zh' else f'Design, synthesis and SAR of {targets[0]} inhibitors ({name})')
        if p == 0:
            parts.append(f'<div class="t" style="left:{margin}pt;top:{y}pt;width:{W - 2 * margin}pt">{title}</div>')
            y += 34
        keys = []
        for i in range(count):
            key = f'{series}{letters[k + i]}' if not (prime and i == count - 1) else f"{series}{letters[k + i]}′"
            keys.append(key)
        body = ZH_BODY if lang == 'zh' else EN_BODY
        t_no = p + 1
        para = ' '.join(s.format(core=rng.choice(['C-4', 'C-6', 'N-1', 'R¹']), first=keys[0], last=keys[-1], target=targets[0], t=t_no) for s in rng.sample(body, 2))
        parts.append(f'<div class="p" style="left:{margin}pt;top:{y}pt;width:{W - 2 * margin}pt">{para}</div>')
        y += 62
        cols = 3
        cw = (W - 2 * margin) / cols
        rh = 150.0
        for i in range(count):
            smiles, key_inchi = mols[p][i]
            cx = margin + (i % cols) * cw
            cy = y + (i // cols) * rh
            if label_pos == 'below':
                dw, dh = cw - 20, rh - 34
                dx, dy = cx + 10, cy
                lx, ly, lw, lh = cx, cy + dh + 6, cw, 14
            else:
                dw, dh = cw - 66, rh - 20
                dx, dy = cx + 4, cy
                lx, ly, lw, lh = cx + 4 + dw + 2, cy + dh / 2 - 7, 58, 14
            parts.append(f'<div class="d" style="left:{dx}pt;top:{dy}pt;width:{dw}pt;height:{dh}pt">{drawing_html(smiles, toolkit, form, dw, dh)}</div>')
            align = 'center' if label_pos == 'below' else 'left'
            parts.append(f'<div class="l" style="left:{lx}pt;top:{ly}pt;width:{lw}pt;text-align:{align}">{label_text(lang, keys[i])}</div>')
            page['molecules'].append({'smiles': smiles, 'inchikey': key_inchi, 'label': label_text(lang, keys[i]), 'labelKey': keys[i], 'bbox': box(dx, dy, dw, dh), 'labelBbox': box(lx, ly, lw, lh)})
        y += rh * math.ceil(count / cols) + 8
        # The activity table of this page's compounds.
        cap = (f'表 {t_no}　化合物对 {targets[0]} 的抑制活性' if lang == 'zh' else f'Table {t_no}. Inhibition of {targets[0]} by compounds {keys[0]}–{keys[-1]}')
        parts.append(f'<div class="c" style="left:{margin}pt;top:{y}pt;width:{W - 2 * margin}pt">{cap}</div>')
        y += 18
        row_h = 16.0
        tw = W - 2 * margin
        first_w = 90.0
        other_w = (tw - first_w) / len(columns)

        def header(target, measure, unit):
            m = 'IC<sub>50</sub>' if (sub50 and measure == 'IC50') else ('K<sub>i</sub>' if (sub50 and measure == 'Ki') else measure)
            if measure == 'inhibition':
                return f'{target} 抑制率 (1 μM, %)' if lang == 'zh' else f'{target} inhibition at 1 μM (%)'
            return f'{target} {m}' + (f' ({unit})' if unit_in_header else '')
        cells = [('化合物' if lang == 'zh' else 'Compound')] + [header(*c) for c in columns]
        xs = [margin] + [margin + first_w + j * other_w for j in range(len(columns))]
        widths = [first_w] + [other_w] * len(columns)
        for j, text in enumerate(cells):
            parts.append(f'<div class="th" style="left:{xs[j]}pt;top:{y}pt;width:{widths[j]}pt;height:{row_h}pt">{text}</div>')
        y += row_h
        for i, key in enumerate(keys):
            parts.append(f'<div class="td" style="left:{xs[0]}pt;top:{y}pt;width:{widths[0]}pt;height:{row_h}pt">{key}</div>')
            for j, (target, measure, unit) in enumerate(columns):
                if measure == 'inhibition':
                    value = float(rng.randint(3, 99))
                    relation, value_nm, text = '=', None, f'{value:.0f}'
                else:
                    relation, value, value_nm = activity(rng, unit)
                    text = cell_text(relation, value, unit, not unit_in_header)
                parts.append(f'<div class="td" style="left:{xs[j + 1]}pt;top:{y}pt;width:{widths[j + 1]}pt;height:{row_h}pt">{text}</div>')
                page['activities'].append({'label': key, 'target': target, 'measure': measure, 'relation': relation, 'value': value, 'unit': unit, 'valueNm': value_nm, 'concentration': '1 μM' if measure == 'inhibition' else None, 'source': 'table', 'bbox': box(margin, y, tw, row_h), 'text': text})
            y += row_h
        parts.append(f'<div class="rule" style="left:{margin}pt;top:{y}pt;width:{tw}pt"></div>')
        y += 14
        # One activity sentence: a measure the table does not have.
        key = rng.choice(keys)
        target = targets[1]
        unit = rng.choice(['nM', 'μM'])
        relation, value, value_nm = activity(rng, unit)
        relation = '=' if relation == '~' else relation
        rel_zh = {'=': '为', '<': '小于', '>': '大于'}[relation]
        rel_en = {'=': 'of', '<': 'below', '>': 'above'}[relation]
        v = fmt_value(value, unit)
        sentence = (f'此外，化合物 {key} 对 {target} 的 IC50 {rel_zh} {v} {unit}，选择性良好。' if lang == 'zh' else f'In addition, compound {key} inhibited {target} with an IC50 {rel_en} {v} {unit}.')
        parts.append(f'<div class="p" style="left:{margin}pt;top:{y}pt;width:{tw}pt">{sentence}</div>')
        page['activities'].append({'label': key, 'target': target, 'measure': 'IC50', 'relation': relation, 'value': value, 'unit': unit, 'valueNm': value_nm, 'concentration': None, 'source': 'text', 'bbox': box(margin, y, tw, 28), 'text': sentence})
        parts.append(f'<div class="f" style="left:0;top:{H - 36}pt;width:{W}pt">{p + 1}</div>')
        k += count
        html_pages.append(f'<section class="page" style="width:{W}pt;height:{H}pt">{"".join(parts)}</section>')
        doc['pages'].append(page)
    font = '"Noto Serif CJK SC", "WenQuanYi Micro Hei", serif'
    html = f'''<!doctype html><html><head><meta charset="utf-8"><style>
@page {{ size: {W}pt {H}pt; margin: 0 }}
html, body {{ margin: 0; padding: 0 }}
body {{ font-family: {font}; color: #000 }}
.page {{ position: relative; overflow: hidden; page-break-after: always; break-after: page }}
.page > div {{ position: absolute; box-sizing: border-box }}
.t {{ font-size: 15pt; font-weight: bold; line-height: 20pt }}
.p {{ font-size: 9.5pt; line-height: 13pt; text-align: justify }}
.l {{ font-size: 10pt; font-weight: bold; line-height: 14pt }}
.c {{ font-size: 9.5pt; font-weight: bold }}
.th, .td {{ font-size: 9pt; line-height: {16}pt; padding: 0 4pt; white-space: nowrap; overflow: hidden }}
.th {{ border-top: 1pt solid #000; border-bottom: 0.6pt solid #000; font-weight: bold }}
.rule {{ border-top: 1pt solid #000; height: 0 }}
.f {{ font-size: 9pt; text-align: center }}
.d svg, .d img {{ display: block }}
</style></head><body>{"".join(html_pages)}</body></html>'''
    html_file = os.path.join(work, name + '.html')
    with open(html_file, 'w') as f:
        f.write(html)
    pdf = os.path.join(work, name + '.pdf')
    profile = os.path.join(work, 'chromium-profile')
    subprocess.run(['/usr/bin/chromium', '--headless', '--no-sandbox', '--disable-gpu', f'--user-data-dir={profile}', '--no-pdf-header-footer', f'--print-to-pdf={pdf}', 'file://' + html_file], capture_output=True, check=True, timeout=180)
    if form in ('vector', 'raster'):
        shutil.copy(pdf, os.path.join(out_dir, name + '.pdf'))
        doc['file'] = name + '.pdf'
        doc['mime'] = 'application/pdf'
        return doc
    scans = scan(pdf, rng, doc, work, name)
    if form == 'scan-pdf':
        from PIL import Image
        imgs = [Image.open(s) for s in scans]
        imgs[0].save(os.path.join(out_dir, name + '.pdf'), save_all=True, append_images=imgs[1:], resolution=SCAN_DPI)
        doc['file'] = name + '.pdf'
        doc['mime'] = 'application/pdf'
    else:
        shutil.copy(scans[0], os.path.join(out_dir, name + '.png'))
        doc['file'] = name + '.png'
        doc['mime'] = 'image/png'
        # Boxes in the image's own pixels, bottom-up.
        s = SCAN_DPI / 72
        for page in doc['pages']:
            page['width'], page['height'] = round(page['width'] * s), round(page['height'] * s)
            for item in page['molecules'] + page['activities']:
                for field in ('bbox', 'labelBbox'):
                    if field in item:
                        item[field] = [round(c * s, 1) for c in item[field]]
    return doc


def scan(pdf, rng, doc, work, name):
    """Pages rendered at SCAN_DPI in grey, turned by up to ±0.8°, blurred, noised and JPEG'd; boxes moved with the turn."""
    import numpy as np
    from PIL import Image, ImageFilter
    prefix = os.path.join(work, name + '-scan')
    subprocess.run(['pdftoppm', '-r', str(SCAN_DPI), '-gray', '-png', pdf, prefix], check=True)
    files = sorted(f for f in os.listdir(work) if f.startswith(name + '-scan') and f.endswith('.png'))
    out = []
    for n, f in enumerate(files):
        img = Image.open(os.path.join(work, f)).convert('L')
        angle = rng.uniform(-0.8, 0.8)
        img = img.rotate(angle, resample=Image.BICUBIC, fillcolor=255)
        img = img.filter(ImageFilter.GaussianBlur(radius=rng.uniform(0.4, 0.9)))
        arr = np.asarray(img).astype(np.float32)
        noise = np.random.default_rng(rng.randint(0, 2 ** 31)).normal(0, 9, arr.shape)
        arr = np.clip(arr * 0.93 + 10 + noise, 0, 255).astype(np.uint8)
        img = Image.fromarray(arr)
        jpg = os.path.join(work, f'{name}-{n}.jpg')
        img.save(jpg, quality=rng.randint(55, 80))
        png = os.path.join(work, f'{name}-{n}-scan.png')
        Image.open(jpg).save(png, dpi=(SCAN_DPI, SCAN_DPI))
        out.append(png)
        # PIL turns counter-clockwise about the centre (in image coordinates, y down).
        page = doc['pages'][n]
        W, H = page['width'], page['height']
        a = math.radians(angle)
        cx, cy = W / 2, H / 2

        def turned(b):
            pts = []
            for x, y in ((b[0], b[1]), (b[0], b[3]), (b[2], b[1]), (b[2], b[3])):
                yd = H - y  # to y down
                dx, dy = x - cx, yd - cy
                nx = cx + dx * math.cos(a) + dy * math.sin(a)
                ny = cy - dx * math.sin(a) + dy * math.cos(a)
                pts.append((nx, H - ny))
            return [round(min(p[0] for p in pts), 2), round(min(p[1] for p in pts), 2), round(max(p[0] for p in pts), 2), round(max(p[1] for p in pts), 2)]
        for item in page['molecules'] + page['activities']:
            for field in ('bbox', 'labelBbox'):
                if field in item:
                    item[field] = turned(item[field])
        page['turnDegrees'] = round(angle, 3)
    return out


def plan():
    """The documents, each with its half, form, toolkit and molecules per page (deterministic)."""
    rng = random.Random(SEED)
    mols = pool()
    rng.shuffle(mols)
    combos = [(f, t) for f in FORMS for t in TOOLKITS]
    docs = []
    for i in range(DOCS):
        form, toolkit = combos[i % len(combos)]
        pages = 1 if form == 'scan-png' else rng.choice([1, 2, 2, 3])
        docs.append({'index': i, 'form': form, 'toolkit': toolkit, 'pages': pages, 'counts': [rng.randint(4, 6) for _ in range(pages)]})
    # The split: per form × toolkit, a seeded coin decides which of its three documents go where,
    # so both halves hold every combination.
    order = list(range(DOCS))
    rng.shuffle(order)
    halves = {}
    by_combo = {}
    for i in order:
        by_combo.setdefault((docs[i]['form'], docs[i]['toolkit']), []).append(i)
    for n, (combo, ids) in enumerate(sorted(by_combo.items())):
        for j, i in enumerate(ids):
            halves[i] = 'tuning' if (j + n) % 2 == 0 else 'held-out'
    # Even out the halves' document counts.
    tun = [i for i in order if halves[i] == 'tuning']
    held = [i for i in order if halves[i] == 'held-out']
    while len(tun) > len(held) + 1:
        i = tun.pop()
        halves[i] = 'held-out'
        held.append(i)
    while len(held) > len(tun) + 1:
        i = held.pop()
        halves[i] = 'tuning'
        tun.append(i)
    cursor = 0
    for d in docs:
        d['half'] = halves[d['index']]
        d['mols'] = []
        for c in d['counts']:
            d['mols'].append(mols[cursor:cursor + c])
            cursor += c
    # Timing documents for the bench (not scored): a three-page vector paper and another user's one-page PDF.
    timing = [
        {'index': 100, 'name': 'timing-three-page', 'form': 'vector', 'toolkit': 'rdkit', 'pages': 3, 'counts': [6, 6, 6], 'half': 'timing'},
        {'index': 101, 'name': 'timing-other-user', 'form': 'vector', 'toolkit': 'obabel', 'pages': 1, 'counts': [6], 'half': 'timing'},
    ]
    for d in timing:
        d['mols'] = []
        for c in d['counts']:
            d['mols'].append(mols[cursor:cursor + c])
            cursor += c
    return docs + timing


def generate(out, half):
    docs = [d for d in plan() if half == 'all' or d['half'] == half]
    work = tempfile.mkdtemp(prefix='chemdocs-gen-')
    try:
        by_half = {}
        for d in docs:
            name = d.get('name') or f'paper{d["index"] + 1:02d}'
            out_dir = os.path.join(out, d['half'])
            os.makedirs(out_dir, exist_ok=True)
            rng = random.Random(SEED * 1000 + d['index'])
            doc = make_document(rng, name, d['form'], d['toolkit'], d['mols'], d['pages'], out_dir, work)
            doc['half'] = d['half']
            with open(os.path.join(out_dir, doc['file']), 'rb') as f:
                doc['sha256'] = hashlib.sha256(f.read()).hexdigest()
            by_half.setdefault(d['half'], []).append(doc)
            print(f'{d["half"]}/{doc["file"]}: {d["form"]}, {d["toolkit"]}, {len(doc["pages"])} page(s)', file=sys.stderr)
        for h, items in by_half.items():
            with open(os.path.join(out, h, 'truth.json'), 'w') as f:
                json.dump({'version': VERSION, 'seed': SEED, 'half': h, 'source': NCI, 'documents': items}, f, ensure_ascii=False, indent=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('out', nargs='?', help='output folder')
    ap.add_argument('--half', default='all', choices=['tuning', 'held-out', 'timing', 'all'])
    a = ap.parse_args()
    if not a.out:
        ap.error('an output folder is needed')
    generate(a.out, a.half)


if __name__ == '__main__':
    main()
