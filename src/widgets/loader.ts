// The embed loader (/widgets/csai.js): one script tag defines every <csai-*> element. Each element
// here is a small shell; its React view, twind and i18n load with import() when the first
// instance connects, from URLs relative to this script (so a foreign page can embed it).
import { defineOnce } from './shared/define-once';
import { CsaiAskElement } from './ask/ask.element';
import { CsaiChannelsElement } from './channels/channels.element';
import { CsaiKnowledgeElement } from './knowledge/knowledge.element';
import { CsaiChemEditorElement } from './chem-editor/chem-editor.element';
import { CsaiDockingBatchElement } from './docking/docking-batch.element';
import { CsaiMolecule3dElement } from './molecule/molecule-3d.element';
import { CsaiMoleculeElement } from './molecule/molecule.element';
import { CsaiPdfViewerElement } from './pdf-viewer/pdf-viewer.element';
import { CsaiStatusElement } from './status/status.element';

// zod probes `new Function` when it builds object schemas; under a page's CSP without 'unsafe-eval'
// the browser reports that probe. zod reads this global (it creates the same one itself) when its
// code first loads, after this line, and then parses without the probe (jitless).
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= { jitless: true };

/**
 * Every element the loader provides, by tag. An element's issue adds its row
 * (`csai-ask`, `csai-channels`, `csai-knowledge`, `csai-pdf-viewer`, `csai-molecule`).
 */
export const elementRegistry: Readonly<Record<string, CustomElementConstructor>> = {
  'csai-status': CsaiStatusElement,
  'csai-ask': CsaiAskElement,
  'csai-channels': CsaiChannelsElement,
  'csai-knowledge': CsaiKnowledgeElement,
  'csai-pdf-viewer': CsaiPdfViewerElement,
  'csai-molecule': CsaiMoleculeElement,
  'csai-molecule-3d': CsaiMolecule3dElement,
  'csai-chem-editor': CsaiChemEditorElement,
  'csai-docking-batch': CsaiDockingBatchElement,
};

for (const [tag, ctor] of Object.entries(elementRegistry)) defineOnce(tag, ctor);
