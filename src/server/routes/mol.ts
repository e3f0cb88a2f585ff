import { drawSvgBody, drawSvgResult, molKeyQuery, molString, pdbIdQuery, pdbString } from '../../contract/mol';
import { molSearchBody, molSearchResult } from '../../contract/molecules';
import { errorResponses, failure, ok as okSchema } from '../../contract/envelope';
import { ChemInputError } from '../chem/engine';
import { ChemUnavailableError, createChemService } from '../chem/service';
import { structures } from '../chem/structures';
import { AppError, badRequest } from '../errors';
import { fileStore } from '../knowledge/file-store';
import { moleculeFingerprints } from '../molecules/fingerprints';
import { moleculeSearch } from '../molecules/search';
import { ok, type App, type Services } from './types';

/** Molfiles of up to 1 MB travel as JSON strings; escaping may add a little. */
const DRAW_BODY_LIMIT = 2 * 1024 * 1024 + 64 * 1024;

/** Turns the chemistry service's errors into the envelope: bad input 400, busy or broken 503. */
function chemError(err: unknown): never {
  if (err instanceof ChemInputError) throw badRequest(err.message, err.field, err.code);
  if (err instanceof ChemUnavailableError) throw new AppError(503, 'chem_unavailable', err.message);
  throw err;
}

/** SPEC §7 Other: the mol calls — structure drawings, SDF molecules and PDB structures (DESIGN §6). */
export default async function molRoutes(app: App, { config, db }: Services) {
  const chem = createChemService();
  app.addHook('onClose', () => chem.close());
  const lookup = structures({ db, files: fileStore(config.dataDir), chem, pdbMirror: config.CSAI_PDB_MIRROR });
  const molecules = moleculeSearch({ db, chem });
  // The fingerprints load on first use (~3 s for 110,000 molecules): start that soon after start-up
  // rather than in the first chemist's search. A failure leaves it to that first search.
  let warm: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    warm = setTimeout(() => void moleculeFingerprints(db).refresh().catch((err: unknown) => app.log.warn({ err }, 'molecule fingerprints not loaded')), 2000);
    warm.unref();
  });
  app.addHook('onClose', async () => clearTimeout(warm));

  app.post('/draw_svg', {
    bodyLimit: DRAW_BODY_LIMIT,
    schema: {
      tags: ['mol'],
      summary: 'Draws a structure (SMILES or molfile) as an inline-safe SVG, with optional atom/bond/SMARTS highlighting',
      body: drawSvgBody,
      response: { 200: okSchema(drawSvgResult), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    await req.requireUser();
    const { smiles, molfile, width, height, highlight } = req.body;
    const input = smiles !== undefined ? { smiles } : { molfile: molfile ?? '' };
    const d = await chem.depict(input, { width, height, highlight }).catch(chemError);
    return ok({
      svg: d.svg,
      canonical_smiles: d.canonicalSmiles,
      formula: d.formula,
      num_atoms: d.numAtoms,
      highlighted_atoms: d.highlightedAtoms,
      highlighted_bonds: d.highlightedBonds,
    });
  });

  app.get('/get_mol_string', {
    schema: {
      tags: ['mol'],
      summary: 'One molecule of a parsed SDF document as a molfile; mol_key is `${docId}:${index}`',
      querystring: molKeyQuery,
      response: { 200: okSchema(molString), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    const user = await req.requireUser();
    return ok(await lookup.molecule(user, req.query.mol_key));
  });

  app.get('/get_pdb_string', {
    schema: {
      tags: ['mol'],
      summary: "A PDB structure from the user's documents (by PDB id or document id), else the configured mirror",
      querystring: pdbIdQuery,
      response: { 200: okSchema(pdbString), ...errorResponses, 502: failure },
    },
  }, async (req) => {
    const user = await req.requireUser();
    return ok(await lookup.pdb(user, req.query.pdb_id));
  });

  app.post('/search', {
    // A drawn query (molfile) may be long; anything up to the contract's limit gets its 400 from the schema.
    bodyLimit: DRAW_BODY_LIMIT,
    schema: {
      tags: ['mol'],
      summary: 'Molecule database search (issue 18 §5): exact structure, substructure (SMILES/SMARTS/molfile) or Morgan similarity over every molecule of the documents the user may read',
      body: molSearchBody,
      response: { 200: okSchema(molSearchResult), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    const user = await req.requireUser();
    const { query, mode, threshold, top_k } = req.body;
    return ok(await molecules.search(user, { query, mode, threshold, topK: top_k }).catch(chemError));
  });
}
