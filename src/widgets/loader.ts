// The embed loader (/widgets/csai.js): one script tag defines every <csai-*> element. Each element
// here is a small shell; its React view, twind and i18n load with import() when the first
// instance connects, from URLs relative to this script (so a foreign page can embed it).
import { defineOnce } from './shared/define-once';
import { CsaiAskElement } from './ask/ask.element';
import { CsaiChannelsElement } from './channels/channels.element';
import { CsaiKnowledgeElement } from './knowledge/knowledge.element';
import { CsaiChemEditorElement } from './chem-editor/chem-editor.element';
import { CsaiMolecule3dElement } from './molecule/molecule-3d.element';
import { CsaiMoleculeElement } from './molecule/molecule.element';
import { CsaiPdfViewerElement } from './pdf-viewer/pdf-viewer.element';
import { CsaiStatusElement } from './status/status.element';

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
};

for (const [tag, ctor] of Object.entries(elementRegistry)) defineOnce(tag, ctor);
