import { useEffect, useRef, useState } from 'react';
import type { DrawSvgResult } from '../../contract/mol';
import type { CommonProps } from '../shared/element';
import { ApiError, type ApiClient } from '../../core/api';
import { createMoleculeApi, type DrawRequest } from '../../core/molecule-api';
import { useApi, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { moleculeStrings } from './molecule.strings';
import { parseSvg } from './svg';

addStrings('molecule', moleculeStrings);

export interface MoleculeProps extends CommonProps {
  smiles: string | undefined;
  molKey: string | undefined;
  molfile: string | undefined;
  width: number | undefined;
  height: number | undefined;
  caption: boolean;
  hideCopy: boolean;
  highlightAtoms: string | undefined;
  highlightBonds: string | undefined;
}

const DEFAULT_W = 240;
const DEFAULT_H = 180;
const clampSize = (n: number | undefined, d: number) => (n === undefined ? d : Math.min(2000, Math.max(50, Math.round(n))));

/** A comma-separated index list (`0,1,2`) as numbers; anything else is ignored. */
const indices = (list: string | undefined) => (list ?? '').split(',').map((x) => x.trim()).filter((x) => /^\d{1,5}$/.test(x)).map(Number);

/** Drawings shared by every <csai-molecule> on the page (answers repeat structures), by input, size and highlight. */
const drawings = new Map<string, Promise<DrawSvgResult & { smilesIn: string }>>();
const MAX_CACHED = 200;

/** Draws through the client of the element that asks first (its csai-error reports a failure). */
function draw(client: ApiClient, input: { smiles?: string; molKey?: string; molfile?: string }, width: number, height: number, highlight?: { atoms: number[]; bonds: number[] }) {
  const key = JSON.stringify([client.root, input.smiles, input.molKey, input.molfile, width, height, highlight]);
  let job = drawings.get(key);
  if (!job) {
    job = (async () => {
      const api = createMoleculeApi(client);
      let body: { smiles: string } | { molfile: string };
      let smilesIn = input.smiles ?? '';
      if (input.molKey) {
        const mol = await api.molString(input.molKey);
        body = { molfile: mol.molfile };
        smilesIn = mol.smiles;
      } else if (input.molfile) body = { molfile: input.molfile };
      else body = { smiles: input.smiles ?? '' };
      const request: DrawRequest = { ...body, width, height, ...(highlight ? { highlight } : {}) };
      const result = await api.drawSvg(request);
      return { ...result, smilesIn };
    })();
    drawings.set(key, job);
    // A failure is not kept (the next element retries); the oldest drawing goes past the limit.
    job.catch(() => drawings.delete(key));
    if (drawings.size > MAX_CACHED) drawings.delete(drawings.keys().next().value ?? '');
  }
  return job;
}

type State = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; svg: SVGSVGElement; result: DrawSvgResult & { smilesIn: string } };

/** A 2D structure drawn by the server (RDKit), with its formula and a copy-SMILES button. */
export function Molecule({ smiles, molKey, molfile, width, height, caption, hideCopy, highlightAtoms, highlightBonds }: MoleculeProps) {
  const client = useApi();
  const t = useT('molecule');
  const tRef = useRef(t);
  tRef.current = t;
  const [view, setView] = useState<State>({ state: 'loading' });
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const box = useRef<HTMLDivElement>(null);
  const w = clampSize(width, DEFAULT_W);
  const h = clampSize(height, DEFAULT_H);

  useEffect(() => {
    let live = true;
    const tr = tRef.current;
    if (!smiles && !molKey && !molfile) {
      setView({ state: 'error', message: tr('no_input') });
      return;
    }
    setView({ state: 'loading' });
    const atoms = indices(highlightAtoms);
    const highlight = atoms.length ? { atoms, bonds: indices(highlightBonds) } : undefined;
    draw(client, { smiles, molKey, molfile }, w, h, highlight).then(
      (result) => {
        if (!live) return;
        const svg = parseSvg(result.svg);
        if (!svg) {
          setView({ state: 'error', message: tr('bad_svg') });
          return;
        }
        setView({ state: 'done', svg, result });
      },
      (error: unknown) => {
        if (!live) return;
        // A failed call reached the page as the client's csai-error; the drawing says why inline.
        const reason = error instanceof ApiError && error.code !== 'network_error' ? error.message : tr('network_error');
        setView({ state: 'error', message: tr('failed', { message: reason }) });
      },
    );
    return () => {
      live = false;
    };
  }, [client, smiles, molKey, molfile, w, h, highlightAtoms, highlightBonds]);

  // The drawing joins the DOM as nodes (never as an HTML string). A clone per element: the
  // cached parse may be shown by several elements.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    if (view.state !== 'done') {
      el.replaceChildren();
      return;
    }
    const svg = view.svg.cloneNode(true) as SVGSVGElement;
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    svg.style.width = '100%';
    svg.style.height = '100%';
    el.replaceChildren(svg);
  }, [view]);

  const shownSmiles = view.state === 'done' ? view.result.smilesIn || view.result.canonical_smiles : (smiles ?? '');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shownSmiles);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  };

  return (
    <figure part="base" className="inline-flex flex-col items-center gap-1 m-0 font-csai text-ink">
      <div
        ref={box}
        part="drawing"
        role="img"
        aria-busy={view.state === 'loading'}
        aria-label={shownSmiles ? t('structure', { smiles: shownSmiles }) : t('structure_key')}
        className="flex items-center justify-center bg-white rounded-csai border border-line overflow-hidden"
        style={{ width: `${w}px`, height: `${h}px`, maxWidth: '100%' }}
      />
      {view.state === 'loading' && (
        <p part="status" role="status" className="text-xs text-muted m-0">
          {t('drawing')}
        </p>
      )}
      {view.state === 'error' && (
        <p part="error" role="alert" className="text-xs text-danger m-0 max-w-[20rem] text-center">
          {view.message}
        </p>
      )}
      {(caption || !hideCopy) && view.state === 'done' && (
        <figcaption part="caption" className="flex items-center gap-2 text-xs text-muted">
          {caption && <span part="formula">{t('formula', { formula: view.result.formula })}</span>}
          {!hideCopy && (
            <button
              type="button"
              part="copy"
              onClick={() => void copy()}
              className="px-2 py-0.5 rounded-csai border border-line bg-surface text-ink hover:border-accent focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent"
            >
              {copyState === 'copied' ? t('copied') : t('copy')}
            </button>
          )}
          {copyState === 'failed' && (
            <span role="alert" className="text-danger">
              {t('copy_failed')}
            </span>
          )}
        </figcaption>
      )}
    </figure>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<MoleculeProps>(Molecule);
