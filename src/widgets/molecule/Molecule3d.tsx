import { useCallback, useEffect, useRef, useState } from 'react';
import type { GLViewer } from '3dmol';
import type { PoseInteraction } from '../../contract/docking';
import type { CommonProps } from '../shared/element';
import { emit } from '../shared/events';
import { ApiError, type ApiClient } from '../../core/api';
import { createKnowledgeApi } from '../../core/knowledge-api';
import { createMoleculeApi } from '../../core/molecule-api';
import { useApi, useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { moleculeStrings } from './molecule.strings';

addStrings('molecule', moleculeStrings);

export interface Molecule3dProps extends CommonProps {
  pdbId: string | undefined;
  docId: string | undefined;
  molKey: string | undefined;
  /** A docking task of the user: its prepared receptor with one of its poses (`pose`, from 1). */
  taskId: string | undefined;
  pose: number | undefined;
  /** Initial style: cartoon (default for PDB), stick (default for small molecules) or sphere. */
  representation: string | undefined;
  spin: boolean;
}

type Style = 'cartoon' | 'stick' | 'sphere';
interface Structure {
  data: string;
  format: 'pdb' | 'sdf';
  /** Docked poses (SDF records) shown one at a time beside the receptor. */
  poses?: string[];
  /** Each pose's interactions with the receptor (PLIP), drawn as dashed lines. */
  interactions?: PoseInteraction[][];
}

/** Colours of the dashed interaction lines. */
const INTERACTION_COLOR: Record<PoseInteraction['type'], string> = {
  hbond: '#2563eb',
  salt_bridge: '#dc2626',
  halogen_bond: '#0d9488',
  pi_stacking: '#16a34a',
  pi_cation: '#ea580c',
  water_bridge: '#0891b2',
  metal_complex: '#7c3aed',
  hydrophobic: '#9ca3af',
};
/** Receptor residues within this distance (Å) of the pose are drawn as sticks: the pocket. */
const POCKET = 5;
const point = ([x, y, z]: readonly number[]) => ({ x: x!, y: y!, z: z! });

/** Ligands: hetero residues that are not water. */
const LIGAND = { hetflag: true, not: { resn: 'HOH' } };

/** Whether this browser can give a WebGL context (3Dmol needs one). */
export function hasWebGl(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

async function loadStructure(client: ApiClient, props: Pick<Molecule3dProps, 'pdbId' | 'docId' | 'molKey' | 'taskId'>, signal: AbortSignal): Promise<Structure> {
  const mol = createMoleculeApi(client);
  if (props.taskId) {
    const [receptor, poses, task] = await Promise.all([
      mol.dockingFile(props.taskId, 'receptor', { signal }),
      mol.dockingFile(props.taskId, 'sdf', { signal }),
      mol.dockingTask(props.taskId, { signal }),
    ]);
    const records = (await poses.blob.text()).split(/^\$\$\$\$\r?$/m).filter((r) => r.trim() !== '').map((r) => `${r.replace(/^\r?\n/, '')}$$$$\n`);
    const interactions = task.result?.poses.map((p) => p.interactions ?? []) ?? [];
    return { data: await receptor.blob.text(), format: 'pdb', poses: records, interactions };
  }
  if (props.molKey) {
    const { molfile } = await mol.molString(props.molKey, { signal });
    return { data: molfile, format: 'sdf' };
  }
  if (props.docId) {
    const knowledge = createKnowledgeApi(client);
    const doc = await knowledge.doc(props.docId, { signal, quiet: false });
    if (doc.type === 5) {
      const { blob } = await knowledge.download(props.docId, { signal });
      return { data: await blob.text(), format: 'sdf' };
    }
  }
  const id = props.pdbId ?? props.docId ?? '';
  const pdb = await mol.pdbString(id, { signal });
  return { data: pdb.pdb, format: 'pdb' };
}

/** The pose drawn (index from 0): `pose` from 1; absent or unreadable (pose="best" reaches here as NaN): the best. */
const shownPoseIndex = (pose: number | undefined, count: number) => Math.min(Math.max(pose !== undefined && Number.isFinite(pose) ? Math.trunc(pose) - 1 : 0, 0), count - 1);

/** A 3D structure (PDB or SDF) in 3Dmol.js, loaded only when this element is used. */
export function Molecule3d({ pdbId, docId, molKey, taskId, pose, representation: initialStyle, spin: initialSpin }: Molecule3dProps) {
  const { host } = useHost();
  const client = useApi();
  const t = useT('molecule');
  const tRef = useRef(t);
  tRef.current = t;
  const box = useRef<HTMLDivElement>(null);
  const viewer = useRef<GLViewer | null>(null);
  const poses = useRef<string[]>([]);
  const interactions = useRef<PoseInteraction[][]>([]);
  const receptorModel = useRef<ReturnType<GLViewer['addModel']> | null>(null);
  /** The docking pose drawn (from 1), as `data-pose` on the canvas. */
  const [shownPose, setShownPose] = useState<number>();
  const poseModel = useRef<ReturnType<GLViewer['addModel']> | null>(null);
  const [state, setState] = useState<{ state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; atoms: number; ligand: boolean; format: 'pdb' | 'sdf' }>({ state: 'loading' });
  const [style, setStyle] = useState<Style>('cartoon');
  const [spinning, setSpinning] = useState(initialSpin);

  useEffect(() => {
    const el = box.current;
    const tr = tRef.current;
    if (!el) return;
    if (!pdbId && !docId && !molKey && !taskId) {
      setState({ state: 'error', message: tr('no_input_3d') });
      return;
    }
    if (!hasWebGl()) {
      setState({ state: 'error', message: tr('webgl_missing') });
      emit(host, 'csai-error', { message: tr('webgl_missing'), code: 'webgl_missing' });
      return;
    }
    const abort = new AbortController();
    setState({ state: 'loading' });
    void (async () => {
      try {
        const [$3Dmol, structure] = await Promise.all([import('3dmol'), loadStructure(client, { pdbId, docId, molKey, taskId }, abort.signal)]);
        if (abort.signal.aborted) return;
        el.replaceChildren();
        const v = $3Dmol.createViewer(el, { backgroundColor: 'white', antialias: true });
        viewer.current = v;
        const model = v.addModel(structure.data, structure.format);
        poses.current = structure.poses ?? [];
        interactions.current = structure.interactions ?? [];
        receptorModel.current = model;
        poseModel.current = null;
        const atoms = model.selectedAtoms({}).length;
        const ligand = structure.format === 'pdb' && (poses.current.length > 0 || model.selectedAtoms(LIGAND).length > 0);
        const first: Style =
          initialStyle === 'stick' || initialStyle === 'sphere' || initialStyle === 'cartoon' ? initialStyle : structure.format === 'pdb' ? 'cartoon' : 'stick';
        setStyle(first);
        setState({ state: 'ready', atoms, ligand, format: structure.format });
      } catch (error) {
        if (abort.signal.aborted) return;
        // A failed call reached the page as the client's csai-error; anything else (3Dmol) is told here.
        const reason = error instanceof ApiError ? (error.code === 'network_error' ? tr('network_error') : error.message) : error instanceof Error ? error.message : String(error);
        setState({ state: 'error', message: tr('failed_3d', { message: reason }) });
        if (!(error instanceof ApiError)) emit(host, 'csai-error', { message: reason, code: 'load_failed' });
      }
    })();
    return () => {
      abort.abort();
      viewer.current?.clear();
      viewer.current = null;
      el.replaceChildren();
    };
  }, [client, host, pdbId, docId, molKey, taskId, initialStyle]);

  // Styles: cartoon keeps ligands as sticks so they stay visible.
  useEffect(() => {
    const v = viewer.current;
    if (!v || state.state !== 'ready') return;
    // A docking task: the selected pose (SDF atoms are hetero atoms, so it is drawn as the ligand).
    if (poses.current.length) {
      if (poseModel.current) v.removeModel(poseModel.current);
      // `pose` from 1; absent or unreadable (pose="best" reaches here as NaN): the best.
      const index = shownPoseIndex(pose, poses.current.length);
      poseModel.current = v.addModel(poses.current[index]!, 'sdf');
      setShownPose(index + 1);
    }
    v.setStyle({}, style === 'cartoon' ? { cartoon: { color: 'spectrum' } } : style === 'stick' ? { stick: {} } : { sphere: { scale: 0.9 } });
    if (style === 'cartoon') v.setStyle(LIGAND, { stick: { colorscheme: 'greenCarbon' } });
    if (state.format === 'sdf' && style === 'cartoon') v.setStyle({}, { stick: {} });
    v.removeAllShapes();
    v.removeAllLabels();
    if (poseModel.current && receptorModel.current) {
      // The pocket: receptor residues near the pose as thin sticks over the cartoon, the pose's
      // interactions as dashed lines with their residues labelled; the view frames pose and pocket
      // together, so the whole ligand stays inside the near and far planes.
      const pocket = { model: receptorModel.current, byres: true, within: { distance: POCKET, sel: { model: poseModel.current } } };
      if (style === 'cartoon') v.addStyle(pocket, { stick: { radius: 0.12, colorscheme: 'whiteCarbon' } });
      const shown = interactions.current[shownPoseIndex(pose, poses.current.length)] ?? [];
      const labelled = new Set<string>();
      for (const i of shown) {
        v.addCylinder({ start: point(i.ligand_xyz), end: point(i.protein_xyz), radius: 0.06, dashed: true, dashLength: 0.2, gapLength: 0.15, color: INTERACTION_COLOR[i.type] });
        if (i.type !== 'hydrophobic' && !labelled.has(i.residue)) {
          labelled.add(i.residue);
          v.addLabel(i.residue, { position: point(i.protein_xyz), fontSize: 11, fontColor: 'black', backgroundColor: 'white', backgroundOpacity: 0.7, inFront: true });
        }
      }
      v.zoomTo({ or: [{ model: poseModel.current }, pocket] });
    } else v.zoomTo();
    v.render();
  }, [style, state, pose]);

  useEffect(() => {
    const v = viewer.current;
    if (!v || state.state !== 'ready') return;
    v.spin(spinning ? 'y' : false);
  }, [spinning, state]);

  // 3Dmol sizes its canvas from the box; follow the element's size.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      // A box of no size (not laid out yet, or hidden) has nothing to draw into: WebGL warns on it.
      if (!el.clientWidth || !el.clientHeight) return;
      viewer.current?.resize();
      viewer.current?.render();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const focusLigand = useCallback(() => {
    const v = viewer.current;
    if (!v) return;
    // A docked pose: the pose with its pocket (the ligand alone was framed so tightly that it was clipped).
    if (poseModel.current && receptorModel.current) v.zoomTo({ or: [{ model: poseModel.current }, { model: receptorModel.current, byres: true, within: { distance: POCKET, sel: { model: poseModel.current } } }] }, 600);
    else v.zoomTo(LIGAND, 600);
    v.render();
  }, []);
  const reset = useCallback(() => {
    const v = viewer.current;
    if (!v) return;
    v.zoomTo({}, 400);
    v.render();
  }, []);

  const btn = 'h-8 px-2 rounded-csai border border-line bg-surface text-ink text-sm hover:border-accent focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50';
  const ready = state.state === 'ready';
  return (
    <section part="base" aria-label={t('viewer_3d')} className="flex flex-col gap-2 font-csai text-ink h-full">
      <div part="toolbar" role="toolbar" aria-label={t('viewer_3d')} className="flex flex-wrap items-center gap-2">
        <label className="inline-flex items-center gap-1 text-sm">
          {t('style')}
          <select
            part="style"
            value={style}
            disabled={!ready}
            onChange={(e) => setStyle(e.target.value === 'stick' ? 'stick' : e.target.value === 'sphere' ? 'sphere' : 'cartoon')}
            className="h-8 px-1 rounded-csai border border-line bg-surface text-ink text-sm"
          >
            {(ready && state.format === 'sdf' ? (['stick', 'sphere'] as const) : (['cartoon', 'stick', 'sphere'] as const)).map((s) => (
              <option key={s} value={s}>
                {t(s)}
              </option>
            ))}
          </select>
        </label>
        {ready && state.format === 'pdb' && (
          <button type="button" part="ligand" className={btn} onClick={focusLigand} disabled={!state.ligand} title={state.ligand ? t('ligand') : t('no_ligand')}>
            {t('ligand')}
          </button>
        )}
        <button type="button" part="reset" className={btn} onClick={reset} disabled={!ready}>
          {t('reset')}
        </button>
        <button type="button" part="spin" className={`${btn} ${spinning ? 'border-accent text-accent' : ''}`} aria-pressed={spinning} onClick={() => setSpinning((s) => !s)} disabled={!ready}>
          {t('spin')}
        </button>
        {ready && (
          <span part="atoms" className="text-sm text-muted">
            {t('atoms', { count: state.atoms })}
          </span>
        )}
      </div>
      <div className="relative flex-1 min-h-[16rem]">
        <div ref={box} part="canvas" role="img" aria-label={t('viewer_3d')} data-pose={shownPose} className="absolute inset-0 rounded-csai border border-line overflow-hidden bg-white" />
        {state.state === 'loading' && (
          <p part="status" role="status" className="absolute inset-0 flex items-center justify-center text-sm text-muted m-0">
            {t('loading_3d')}
          </p>
        )}
        {state.state === 'error' && (
          <p part="error" role="alert" className="absolute inset-0 flex items-center justify-center p-4 text-center text-sm text-danger m-0">
            {state.message}
          </p>
        )}
      </div>
    </section>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<Molecule3dProps>(Molecule3d);
