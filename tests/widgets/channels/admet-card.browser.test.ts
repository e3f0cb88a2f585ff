// The ADMET tool card: rendered as the answer view renders a tool card (reactView in a shadow root),
// with the server's draw_svg and export calls faked as the server answers them.
import axe from 'axe-core';
import { createElement } from 'react';
import '../../../src/widgets/molecule/molecule.element';
import type { AdmetMolecule } from '../../../src/contract/admet';
import { AdmetCard } from '../../../src/widgets/channels/tool-cards/AdmetCard';
import { toolCards, type ToolCardProps } from '../../../src/widgets/channels/tool-cards/index';
import type { CommonProps } from '../../../src/widgets/shared/element';
import { reactView } from '../../../src/widgets/shared/react-view';
import { expect, failOnConsoleErrors, nextFrame, part, waitFor } from '../harness';
import { fail, fakeApi, ok, ping, type ApiRequest } from '../fake-api';
import { untranslated } from '../untranslated';

const aspirin: AdmetMolecule = {
  input: 'CC(=O)Oc1ccccc1C(=O)O', name: '', source: 'smiles', smiles: 'CC(=O)Oc1ccccc1C(=O)O', formula: 'C9H8O4', mw: 180.16, heavy_atoms: 13,
  aromatic_heavy_atoms: 6, fraction_csp3: 0.11, rotatable_bonds: 2, hba: 3, hbd: 1, mr: 44.71, tpsa: 63.6, tpsa_sp: 63.6, wlogp: 1.31, mlogp: 0.89,
  consensus_logp: 1.1, esol_log_s: -1.99, esol_mg_ml: 1.84, esol_mol_l: 0.0102, esol_class: 'very', gi_absorption: 'high', bbb_permeant: true,
  log_kp: -6.47, lipinski: [], ghose: [], veber: [], egan: [], muegge: ['MW<200'], bioavailability_score: 0.85, pains: [], brenk: ['phenol_ester'],
  leadlikeness: ['MW<250'], sa_score: 1.58, qed: 0.55,
};
const caffeine: AdmetMolecule = {
  ...aspirin, input: 'hits.sdf #2', name: 'caffeine', source: 'sdf', smiles: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', formula: 'C8H10N4O2', mw: 194.19,
  wlogp: -1.03, tpsa: 61.82, tpsa_sp: 61.82, gi_absorption: 'high', bbb_permeant: false, brenk: [], ghose: ['WLOGP<-0.4'],
};
const RESULT = { molecules: [aspirin, caffeine], notes: ['附带的 SDF 文件共有 60 个分子，单次最多计算 50 个，本次计算了其中 49 个。'] };
const SVG = "<svg xmlns='http://www.w3.org/2000/svg' width='240px' height='180px' viewBox='0 0 240 180'><path d='M 10,10 L 100,100' /></svg>";

function fakeServer(exportStatus = 200) {
  return fakeApi([
    ['GET', '/', () => {
      document.cookie = 'XSRF-TOKEN=tok123; path=/';
      return ping();
    }],
    ['POST', '/mol/draw_svg', () => ok({ svg: SVG, canonical_smiles: 'CCO', formula: 'C2H6O', num_atoms: 3, highlighted_atoms: [], highlighted_bonds: [] })],
    ['POST', '/mol/admet/export', () => {
      if (exportStatus !== 200) return fail(exportStatus, '化学计算服务繁忙，请稍后再试', 'chem_unavailable');
      return new Response('\ufeffMolecule,Name\r\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="admet.csv"' } });
    }],
  ]);
}

const Card = (props: ToolCardProps & CommonProps) => createElement(AdmetCard, props);

describe('the ADMET tool card', () => {
  failOnConsoleErrors();
  let host: HTMLElement | undefined;
  let unmount = () => {};
  let restore = () => {};
  let calls: ApiRequest[] = [];

  afterEach(() => {
    unmount();
    host?.remove();
    restore();
  });

  async function show(props: Partial<ToolCardProps> = {}, exportStatus = 200) {
    const server = fakeServer(exportStatus);
    calls = server.calls;
    restore = server.restore;
    host = document.createElement('div');
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open' });
    const handle = reactView(Card).mount(root, host, {
      name: 'admet', ok: true, content: '| 分子 | …', data: RESULT,
      theme: undefined, lang: undefined, apiBase: undefined, accent: undefined, radius: undefined, ...props,
    });
    unmount = () => handle.unmount();
    await waitFor(() => root.querySelector('[part~="admet-card"], [part~="tool-error"]'), 'the card');
    return root;
  }

  it('has no untranslated words: Chinese radar axes and alerts in Chinese, no Chinese in English (issue 32 §2)', async () => {
    const zh = await show({ data: { ...RESULT, molecules: [{ ...aspirin, pains: ['quinone_A(370)'], brenk: ['phenol_ester', 'chinone_1'] }] } });
    const skip = '[data-field="formula"], csai-molecule, [part~="admet-note"], summary .font-semibold';
    expect(untranslated(zh, 'zh', skip)).to.deep.equal([]);
    const axes = [...zh.querySelectorAll('[part~="admet-radar"] text[data-axis]')].map((t) => t.lastChild?.textContent);
    expect(axes).to.deep.equal(['脂溶性', '分子大小', '极性', '不溶性', '饱和度', '柔性']);
    expect(zh.querySelector('[part~="admet-radar"] text[data-axis="LIPO"] title')?.textContent).to.contain('LIPO');
    expect(zh.querySelector('td[data-field="pains"]')?.textContent).to.equal('醌（quinone_A(370)）');
    unmount();
    host?.remove();
    restore();
    const en = await show({ lang: 'en', content: 'ADMET table', data: { molecules: [aspirin], notes: [] } } as Partial<ToolCardProps>);
    expect(untranslated(en, 'en', skip)).to.deep.equal([]);
    expect(en.querySelector('td[data-field="brenk"]')?.textContent).to.equal('phenol_ester');
    // The method lines (row tooltips) in the page's language: English as published, with an English colon.
    expect(en.querySelector('td[data-field="wlogp"]')!.closest('tr')!.getAttribute('title')).to.equal('Method: WLOGP: Wildman & Crippen 1999 (RDKit CrippenClogP)');
  });

  it('is the card the answer view loads for the admet tool', async () => {
    expect(await toolCards.admet?.()).to.equal(AdmetCard);
  });

  it('shows the table grouped as SwissADME does, with the values, methods and the predictors not computed', async () => {
    const root = await show();
    const groups = [...root.querySelectorAll('[part~="admet-table"] th[scope="colgroup"]')].map((th) => th.textContent);
    expect(groups.slice(0, 6)).to.deep.equal(['理化性质', '脂溶性', '水溶性', '药代动力学', '类药性', '药物化学']);
    const first = root.querySelector('[part~="admet-molecule"]')!;
    const value = (field: string) => first.querySelector(`td[data-field="${field}"]`)?.textContent;
    expect(value('formula')).to.equal('C9H8O4');
    expect(value('wlogp')).to.equal('1.31');
    expect(value('lipinski')).to.equal('符合');
    expect(value('muegge')).to.equal('1 项违规：MW<200');
    // The alert's Chinese description, its original name beside it.
    expect(value('brenk')).to.equal('酚酯（phenol_ester）');
    expect(value('pains')).to.equal('无');
    expect(value('esol_class')).to.equal('易溶');
    expect(first.textContent).to.contain('Log Po/w (XLOGP3)');
    expect(first.textContent).to.contain('未计算');
    expect(first.querySelector('td[data-field="wlogp"]')!.closest('tr')!.getAttribute('title')).to.equal('方法：WLOGP：Wildman 与 Crippen 1999（RDKit 的 Crippen logP）');
    expect(root.querySelector('[part~="admet-note"]')?.textContent).to.contain('共有 60 个分子');
  });

  it('draws the structure, the radar and one BOILED-Egg point per molecule, without inline styles', async () => {
    const root = await show();
    const molecule = root.querySelector('csai-molecule');
    expect(molecule?.getAttribute('smiles')).to.equal('CC(=O)Oc1ccccc1C(=O)O');
    expect(root.querySelectorAll('[part~="admet-radar"] [part~="admet-radar-molecule"]').length).to.be.greaterThan(0);
    const points = [...root.querySelectorAll('[part~="admet-egg-point"]')];
    expect(points.map((p) => [p.textContent, p.getAttribute('data-bbb')])).to.deep.equal([['1', 'true'], ['2', 'false']]);
    expect(root.querySelector('[part~="admet-egg-yolk"]')?.getAttribute('points')?.split(' ').length).to.equal(101);
    // A strict CSP: no style attribute and no <style> element inside the card.
    const card = root.querySelector('[part~="admet-card"]')!;
    expect(card.querySelectorAll('[style]').length).to.equal(0);
    expect(card.querySelectorAll('style').length).to.equal(0);
    // The drawing the chemist sees. Not "a draw_svg call was sent": <csai-molecule> shares drawings
    // page-wide, so an earlier test's drawing of the same SMILES may already serve this one.
    await waitFor(() => part(molecule!, 'drawing')?.querySelector('svg'), 'the structure drawing', 10_000);
  });

  it('downloads the CSV through the page API client, with the molecules and their names', async () => {
    const root = await show();
    const saved: string[] = [];
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved.push(blob instanceof Blob ? blob.type : 'media');
      return createObjectURL.call(URL, blob);
    };
    try {
      root.querySelector<HTMLButtonElement>('[part~="admet-download-csv"]')!.click();
      await waitFor(() => saved.length > 0, 'the saved file');
    } finally {
      URL.createObjectURL = createObjectURL;
    }
    const exported = calls.find((c) => c.url.endsWith('/api/v1/mol/admet/export'))!;
    expect(exported.method).to.equal('POST');
    expect(exported.body).to.deep.equal({ smiles: [aspirin.smiles, caffeine.smiles], names: ['CC(=O)Oc1ccccc1C(=O)O', 'caffeine'], format: 'csv' });
  });

  it('says why an export failed', async () => {
    const root = await show({}, 503);
    root.querySelector<HTMLButtonElement>('[part~="admet-download-sdf"]')!.click();
    const alert = await waitFor(() => root.querySelector('[part~="admet-card"] [role="alert"]'), 'the failure');
    expect(alert.textContent).to.equal('导出失败：化学计算服务繁忙，请稍后再试');
  });

  it('shows the tool’s Chinese message when the call failed', async () => {
    const root = await show({ ok: false, content: '第 2 个分子（C1CC）：无法解析 SMILES：C1CC，请检查结构式是否正确', data: undefined });
    expect(root.querySelector('[part~="tool-error"]')?.textContent).to.equal('第 2 个分子（C1CC）：无法解析 SMILES：C1CC，请检查结构式是否正确');
  });

  it('passes axe', async () => {
    const root = await show();
    await nextFrame();
    const results = await axe.run(root.querySelector('.csai-root')!);
    expect(results.violations.map((v) => v.id)).to.deep.equal([]);
  });
});
