// The review panel of a recognised structure: the drawing as rendered on its page
// beside the molecule read from it (drawn by RDKit through <csai-molecule>), its label, confidence
// and how it was read, and the chemist's correction in the chemical editor (or as typed SMILES),
// saved for every reader of the document.
import { createElement, useEffect, useRef, useState, type FormEvent } from 'react';
import type { StructureReview } from '../../core/structure-review';
import type { DocStructure } from '../../core/structures-api';
import { boxToRect } from '../../core/viewer-geometry';
import type { ViewerModel } from '../../core/viewer-model';
import '../chem-editor/chem-editor.element';
import '../molecule/molecule.element';
import { useHost, useT } from '../shared/host-context';
import type { PdfDocument } from './document-source';
import { useValue } from './use-value';

type Model = ViewerModel<PdfDocument>;

/** The crop's width in CSS pixels (its scale follows from the box's width in points). */
const CROP_WIDTH = 280;
/**
 * Margin around the box in the crop, in PDF points: room for an atom label just outside the box (a
 * label the server's box could not take in, cut away from the drawing's region as a line of text).
 */
const CROP_MARGIN = 12;
/** Attributes the panel's own elements take from the viewer. */
const SHARED_ATTRIBUTES = ['api-base', 'lang', 'theme', 'accent', 'radius'];

const btn = 'inline-flex items-center justify-center h-8 px-3 rounded-csai border border-line bg-surface text-ink text-sm hover:border-accent focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50';

/** What the structures were read from: a PDF's pages, or an image document (its data URL). */
export type DrawingSource = PdfDocument | { image: string };

/** Draws the box of an image (its pixels, origin bottom-left) into the canvas, CROP_WIDTH wide at most. */
async function cropImage(canvas: HTMLCanvasElement, src: string, bbox: readonly [number, number, number, number]): Promise<void> {
  const picture = new Image();
  picture.src = src;
  await picture.decode();
  const margin = CROP_MARGIN * Math.max(1, (bbox[2] - bbox[0]) / CROP_WIDTH);
  const x = Math.max(0, bbox[0] - margin);
  const y = Math.max(0, picture.naturalHeight - bbox[3] - margin);
  const w = Math.min(picture.naturalWidth - x, bbox[2] - bbox[0] + 2 * margin);
  const h = Math.min(picture.naturalHeight - y, bbox[3] - bbox[1] + 2 * margin);
  const scale = Math.min(4, CROP_WIDTH / Math.max(1, w));
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.floor(w * scale * ratio));
  canvas.height = Math.max(1, Math.floor(h * scale * ratio));
  canvas.style.width = `${w * scale}px`;
  canvas.style.height = `${h * scale}px`;
  canvas.getContext('2d')?.drawImage(picture, x, y, w, h, 0, 0, canvas.width, canvas.height);
}

/** The drawing as the document shows it: the page rendered by pdf.js (or the image) into a canvas the size of the box. */
function DrawingCrop({ document, structure }: { document: DrawingSource; structure: DocStructure }) {
  const t = useT('pdfViewer');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { page: pageNumber, bbox } = structure;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let live = true;
    let task: { cancel(): void } | undefined;
    void (async () => {
      try {
        if ('image' in document) {
          await cropImage(canvas, document.image, bbox);
          if (live) canvas.setAttribute('data-rendered', 'true');
          return;
        }
        const page = await document.pdf.getPage(pageNumber);
        if (!live) return;
        const box: [number, number, number, number] = [bbox[0] - CROP_MARGIN, bbox[1] - CROP_MARGIN, bbox[2] + CROP_MARGIN, bbox[3] + CROP_MARGIN];
        const scale = Math.min(4, Math.max(0.5, CROP_WIDTH / Math.max(1, box[2] - box[0])));
        const whole = page.getViewport({ scale });
        const rect = boxToRect(box, (r) => whole.convertToViewportRectangle(r));
        // The same page, shifted so that the box's corner is the canvas's origin.
        const viewport = page.getViewport({ scale, offsetX: -rect.left, offsetY: -rect.top });
        const ratio = window.devicePixelRatio || 1;
        canvas.width = Math.max(1, Math.floor(rect.width * ratio));
        canvas.height = Math.max(1, Math.floor(rect.height * ratio));
        canvas.style.width = `${rect.width}px`;
        canvas.style.height = `${rect.height}px`;
        const render = page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
        task = render;
        await render.promise;
        if (live) canvas.setAttribute('data-rendered', 'true');
      } catch (error) {
        if (live && !(error instanceof Error && error.name === 'RenderingCancelledException')) console.warn('[csai] structure crop failed', error);
      }
    })();
    return () => {
      live = false;
      task?.cancel();
      canvas.removeAttribute('data-rendered');
    };
  }, [document, pageNumber, bbox]);
  return <canvas ref={canvasRef} part="structure-drawing" role="img" aria-label={t('structure_drawing', { page: pageNumber })} width={0} height={0} className="max-w-full border border-line bg-white" />;
}

const REPAIRS: Record<string, string> = {
  'C=O read as charged O': 'repair_charged_oxygen',
  'radical filled with hydrogen': 'repair_radical',
  'terminal B read for Br': 'repair_boron',
  'nitro O⁻ read without its charge': 'repair_nitro_charge',
  'nitro read as N–O⁻': 'repair_nitro_hydroxylamine',
  'benzene ring read with a double bond lost': 'repair_benzene',
  'crossed double bond read as an atom': 'repair_crossed',
  'N⁺ read without its charge': 'repair_charged_nitrogen',
  'several misreadings repaired': 'repair_several',
};

/**
 * How a structure was read, in the reader's language: the server stores it as a short English
 * record (`osra region 300 dpi, repaired (C=O read as charged O), 2 readings agree`, `vector`,
 * `osra region 450 dpi, labels read again (*→N “HN”; I→Cl “c”)`); an unknown record is shown as it is.
 */
export function methodText(t: (key: string, options?: Record<string, unknown>) => string, method: string): string {
  const [head = '', ...rest] = method.split(/, (?![^(]*\))/);
  const base = head === 'vector' ? t('method_vector') : /^osra (region|page) (\d+) dpi$/.exec(head);
  if (base === null) return method;
  let text = typeof base === 'string' ? base : t(base[1] === 'page' ? 'method_osra_page' : 'method_osra_region', { dpi: base[2] });
  for (const part of rest) {
    const repaired = /^repaired \((.+)\)$/.exec(part);
    const agree = /^(\d+) readings agree$/.exec(part);
    // Each change as OSRA's element → the element read (an atom OSRA could not read is '*'), without what the recogniser read.
    const relabelled = /^labels read again \((.+)\)$/.exec(part)?.[1]!.split('; ').map((c) => /^(\S+)→(\S+)/.exec(c));
    if (repaired && REPAIRS[repaired[1]!]) text += t('method_repaired', { what: t(REPAIRS[repaired[1]!]!) });
    else if (agree) text += t('method_agree', { count: Number(agree[1]) });
    else if (relabelled?.every(Boolean)) text += t('method_relabelled', { changes: relabelled.map((m) => `${m![1] === '*' ? '?' : m![1]}→${m![2]}`).join(t('list_separator')) });
    else return method;
  }
  return text;
}

/** Opens `<csai-chem-editor>` (created once in the viewer, with its attributes) at `smiles`; what it returns goes to `onSmiles`. */
function useChemEditor(onSmiles: (smiles: string) => void) {
  const { host, root } = useHost();
  const onSmilesRef = useRef(onSmiles);
  onSmilesRef.current = onSmiles;
  return async (smiles: string) => {
    let editor = root.querySelector('csai-chem-editor');
    if (!editor) {
      editor = document.createElement('csai-chem-editor');
      for (const name of SHARED_ATTRIBUTES) {
        const v = host.getAttribute(name);
        if (v !== null) editor.setAttribute(name, v);
      }
      editor.addEventListener('csai-chem-smiles', (event) => {
        const detail = event instanceof CustomEvent ? (event.detail as { smiles?: unknown }) : undefined;
        if (typeof detail?.smiles === 'string') onSmilesRef.current(detail.smiles);
      });
      (root.querySelector('.csai-root') ?? root).append(editor);
    }
    await customElements.whenDefined('csai-chem-editor');
    editor.open(smiles);
  };
}

/** The structure open for review, beside the pages; null when none is. */
export function StructurePanel({ model, review, document }: { model: Model; review: StructureReview; document: DrawingSource }) {
  const t = useT('pdfViewer');
  const { host, lang } = useHost();
  const structure = useValue(review.$selected);
  const correction = useValue(review.$correction);
  const [typed, setTyped] = useState('');
  const openEditor = useChemEditor((smiles) => {
    setTyped(smiles);
    void review.correct({ smiles });
  });
  useEffect(() => setTyped(''), [structure?.id]);
  if (!structure) return null;
  const shared: Record<string, string> = {};
  for (const name of SHARED_ATTRIBUTES) {
    const v = host.getAttribute(name);
    if (v !== null) shared[name] = v;
  }
  const saving = correction.state === 'saving';
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void review.correct({ smiles: String(new FormData(e.currentTarget).get('smiles') ?? typed) });
  };
  const corrected = structure.corrected_at !== null;
  return (
    <aside part="structure-panel" aria-label={t('structure_panel')} className="w-[40%] max-w-xl min-w-[18rem] shrink-0 overflow-auto border-l border-line p-4 flex flex-col gap-3 text-sm">
      <header className="flex items-center gap-2">
        <h2 className="font-semibold text-base flex-1">{structure.label ? t('structure_title_label', { label: structure.label }) : t('structure_title')}</h2>
        <button type="button" part="structure-close" className={btn} aria-label={t('structure_close')} title={t('structure_close')} onClick={() => review.select(null)}>
          ×
        </button>
      </header>
      <div className="flex flex-wrap gap-3 items-start">
        <figure className="flex flex-col gap-1 m-0">
          <DrawingCrop document={document} structure={structure} />
          <figcaption className="text-muted text-xs">
            <button type="button" part="structure-page" className="underline hover:text-accent" onClick={() => model.goToPage(structure.page)}>
              {t('structure_in_document', { page: structure.page })}
            </button>
          </figcaption>
        </figure>
        <figure className="flex flex-col gap-1 m-0">
          {createElement('csai-molecule', { part: 'structure-molecule', smiles: structure.smiles, width: '240', height: '180', ...shared })}
          <figcaption className="text-muted text-xs">{corrected ? t('structure_corrected_molecule') : t('structure_recognised_molecule')}</figcaption>
        </figure>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted">{t('structure_label')}</dt>
        <dd part="structure-label">{structure.label ?? t('structure_no_label')}</dd>
        <dt className="text-muted">{t('structure_confidence')}</dt>
        <dd part="structure-confidence">{Math.round(structure.confidence * 100)}%</dd>
        <dt className="text-muted">{t('structure_method')}</dt>
        <dd part="structure-method" className="break-all" title={structure.method}>{methodText(t, structure.method)}</dd>
        <dt className="text-muted">SMILES</dt>
        <dd part="structure-smiles" className="break-all font-mono text-xs">{structure.smiles}</dd>
        {corrected && (
          <>
            <dt className="text-muted">{t('structure_recognised')}</dt>
            <dd part="structure-recognised" className="break-all font-mono text-xs">{structure.recognized_smiles}</dd>
          </>
        )}
      </dl>
      {corrected && (
        <p part="structure-corrected-by" className="text-success">
          {t('structure_corrected_by', { name: structure.corrected_by_name ?? structure.corrected_by ?? '', time: new Date(structure.corrected_at ?? '').toLocaleString(lang === 'en' ? 'en' : 'zh-CN') })}
        </p>
      )}
      <section className="flex flex-col gap-2 border-t border-line pt-3" aria-label={t('structure_correct')}>
        <p className="text-muted">{t('structure_who_may')}</p>
        <button type="button" part="structure-edit" className={`${btn} self-start`} disabled={saving} onClick={() => void openEditor(structure.smiles)}>
          {t('structure_edit')}
        </button>
        <form className="flex flex-wrap gap-2 items-center" onSubmit={submit}>
          <input
            part="structure-smiles-input"
            name="smiles"
            aria-label={t('structure_smiles_input')}
            placeholder={t('structure_smiles_input')}
            spellCheck={false}
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            aria-invalid={correction.state === 'error' ? 'true' : undefined}
            className="flex-1 min-w-[10rem] h-8 px-2 rounded-csai border border-line bg-surface text-ink font-mono text-xs"
          />
          <button type="submit" part="structure-save" className={btn} disabled={saving}>
            {saving ? t('structure_saving') : t('structure_save')}
          </button>
        </form>
        {correction.state === 'error' && (
          <p part="structure-error" role="alert" className="text-danger">
            {correction.message}
          </p>
        )}
        {correction.state === 'saved' && (
          <p part="structure-saved" role="status" className="text-success">
            {t('structure_saved')}
          </p>
        )}
      </section>
    </aside>
  );
}
