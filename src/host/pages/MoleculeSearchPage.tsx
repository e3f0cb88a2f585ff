import './MoleculeSearchPage.strings';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
// Signal reads in render are tracked by useSignals() (no compiler plugin), see README.
import { useSignals } from '@preact/signals-react/runtime';
import { MOLECULE_SEARCH_LIMITS, MOLECULE_SEARCH_MODES, moleculeHitPath, structureReviewPath, type MoleculeHit } from '../../contract/molecules';
import { moleculeSearchModel } from '../../core/molecule-search';
import { api } from '../../core/page';
import { useT } from '../i18n';
import { CustomElement, usePageTitle } from '../shell/common';

const TOP_K_CHOICES = [10, 50, 200, MOLECULE_SEARCH_LIMITS.maxTopK];

/**
 * /molecules: the molecule database search (情报数据库检索). A structure typed as
 * SMILES/SMARTS or drawn in the chemical editor, searched by exact structure, substructure or
 * similarity over every molecule of the documents the user may read; each hit drawn, with its
 * score and a link to its document (and page).
 */
export default function MoleculeSearchPage() {
  useSignals();
  const t = useT();
  usePageTitle(t('molecules.title'));
  const model = useMemo(() => moleculeSearchModel(api()), []);
  const editorRef = useRef<HTMLElement>(null);
  const { $query, $mode, $threshold, $topK, $busy, $result, $error } = model;
  /** The molecules of the result shown in the batch docking form, or null. */
  const [docking, setDocking] = useState<string | null>(null);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const onSmiles = (event: Event) => {
      const detail: unknown = event instanceof CustomEvent ? event.detail : undefined;
      if (detail && typeof detail === 'object' && 'smiles' in detail && typeof detail.smiles === 'string') model.useDrawn(detail.smiles);
    };
    editor.addEventListener('csai-chem-smiles', onSmiles);
    return () => editor.removeEventListener('csai-chem-smiles', onSmiles);
  }, [model]);

  const openEditor = () => {
    const editor = editorRef.current;
    if (!editor) return;
    // The element's open(smiles?): start from what is typed, when it is a structure.
    if ($query.value && $mode.value !== 'substructure') editor.setAttribute('smiles', $query.value);
    else editor.removeAttribute('smiles');
    editor.setAttribute('opened', '');
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDocking(null);
    void model.search();
  };

  const result = $result.value;
  return (
    <div className="page molsearch">
      <header className="page__header">
        <h1 className="page__title">{t('molecules.title')}</h1>
        <p className="muted">{t('molecules.intro')}</p>
        <p className="small">
          <Link href="/docking">{t('molecules.batch_link')}</Link>
        </p>
      </header>
      <form className="card molsearch__form" onSubmit={submit} role="search" aria-label={t('molecules.title')}>
        <div className="field-row">
          <label className="field">
            <span className="field__label">{t('molecules.query')}</span>
            <input
              className="input molsearch__query"
              name="query"
              value={$query.value}
              placeholder={t('molecules.placeholder')}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={$error.value ? 'true' : undefined}
              aria-describedby={$error.value ? 'molsearch-error' : 'molsearch-hint'}
              onInput={(e) => {
                $query.value = e.currentTarget.value;
              }}
            />
          </label>
          <button type="button" className="button field-row__action" onClick={openEditor}>
            {t('molecules.draw')}
          </button>
        </div>
        <p id="molsearch-hint" className="field__hint">{t('molecules.hint')}</p>
        <fieldset className="molsearch__modes">
          <legend className="field__label">{t('molecules.mode')}</legend>
          {MOLECULE_SEARCH_MODES.map((mode) => (
            <label key={mode} className="molsearch__mode">
              <input
                type="radio"
                name="mode"
                value={mode}
                checked={$mode.value === mode}
                onChange={() => {
                  $mode.value = mode;
                }}
              />
              {t(`molecules.modes.${mode}`)}
            </label>
          ))}
        </fieldset>
        <div className="molsearch__options">
          {$mode.value === 'similarity' && (
            <label className="field molsearch__option">
              <span className="field__label">{t('molecules.threshold')}</span>
              <input
                className="input"
                type="number"
                name="threshold"
                min={0}
                max={1}
                step={0.05}
                value={$threshold.value}
                onInput={(e) => {
                  const v = Number(e.currentTarget.value);
                  if (Number.isFinite(v)) $threshold.value = Math.min(1, Math.max(0, v));
                }}
              />
            </label>
          )}
          <label className="field molsearch__option">
            <span className="field__label">{t('molecules.top_k')}</span>
            <select
              className="input"
              name="top_k"
              value={$topK.value}
              onChange={(e) => {
                $topK.value = Number(e.currentTarget.value);
              }}
            >
              {TOP_K_CHOICES.map((k) => (
                <option key={k} value={k}>{k}</option>
              ))}
            </select>
          </label>
          <button type="submit" className="button button--primary molsearch__submit" disabled={$busy.value || !$query.value.trim()}>
            {$busy.value ? t('molecules.searching') : t('molecules.search')}
          </button>
        </div>
        {$error.value && (
          <p id="molsearch-error" className="form-error" role="alert">{$error.value}</p>
        )}
      </form>
      <CustomElement tag="csai-chem-editor" elementRef={editorRef} />
      {result && (
        <section className="molsearch__results" aria-label={t('molecules.results')} aria-busy={$busy.value || undefined}>
          <p className="muted molsearch__summary" role="status">
            {result.hits.length
              ? t(result.truncated ? 'molecules.found_more' : 'molecules.found', { count: result.hits.length, searched: result.searched, ms: result.took_ms })
              : t('molecules.none', { searched: result.searched })}
            {result.query.form === 'smarts' ? ` ${t('molecules.as_smarts')}` : ''}
          </p>
          {result.hits.length > 0 && (
            <div className="molsearch__dock">
              <button
                type="button"
                className="button"
                aria-expanded={docking !== null}
                onClick={() => setDocking(docking === null ? result.hits.map((h) => h.molecule_id).join(',') : null)}
              >
                {docking === null ? t('molecules.dock', { count: result.hits.length }) : t('molecules.dock_hide')}
              </button>
              {docking !== null && result.truncated && <p className="muted small">{t('molecules.dock_more', { count: result.hits.length })}</p>}
              {docking !== null && <CustomElement key={docking} tag="csai-docking-batch" attrs={{ 'molecule-ids': docking }} />}
            </div>
          )}
          <ul className="molsearch__hits">
            {result.hits.map((hit) => (
              <HitCard key={hit.molecule_id} hit={hit} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function HitCard({ hit }: { hit: MoleculeHit }) {
  const t = useT();
  const where =
    hit.source === 'sdf' ? t('molecules.where_sdf', { idx: hit.mol_key?.split(':').pop() ?? '' })
    : hit.source === 'pdb' ? t('molecules.where_pdb', { name: hit.name ?? '' })
    : hit.source === 'figure' && hit.page !== null ? (hit.label ? t('molecules.where_figure_label', { page: hit.page, label: hit.label }) : t('molecules.where_figure', { page: hit.page }))
    : hit.page !== null ? t('molecules.where_page', { page: hit.page })
    : t('molecules.where_text');
  const review = structureReviewPath(hit);
  return (
    <li className="molsearch__hit" data-source={hit.source}>
      <CustomElement tag="csai-molecule" attrs={{ smiles: hit.smiles, width: '200', height: '150', 'hide-copy': '', ...highlightAttrs(hit) }} />
      <div className="molsearch__meta">
        <Link href={moleculeHitPath(hit)} className="molsearch__doc">{hit.doc_title}</Link>
        <span className="muted small">{where}{hit.source === 'sdf' && hit.name ? ` · ${hit.name}` : ''}</span>
        {hit.score !== null && <span className="badge badge--accent">{t('molecules.score', { score: hit.score.toFixed(2) })}</span>}
        {hit.matched === 'parent' && <span className="badge molsearch__parent">{t('molecules.matched_parent', { parent: hit.parent_smiles ?? hit.smiles })}</span>}
        {hit.matched === 'stereo' && <span className="badge molsearch__parent">{t('molecules.matched_stereo')}</span>}
        <code className="molsearch__smiles">{hit.smiles}</code>
        {/* A structure read from a drawing opens beside its drawing, to verify or correct. */}
        {review && <Link href={review} className="molsearch__review">{t('molecules.review')}</Link>}
      </div>
    </li>
  );
}

/** A substructure hit's matched atoms and bonds as the drawing's highlight attributes. */
function highlightAttrs(hit: Pick<MoleculeHit, 'highlight'>): Record<string, string> {
  return hit.highlight?.atoms.length ? { 'highlight-atoms': hit.highlight.atoms.join(','), 'highlight-bonds': hit.highlight.bonds.join(',') } : {};
}
