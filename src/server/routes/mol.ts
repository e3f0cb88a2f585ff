import { admetBody, admetExportBody, admetResult } from '../../contract/admet';
import { nameToSmilesInput, nameToSmilesOutput, smilesCompletionInput, smilesCompletionOutput } from '../../contract/names';
import { drawSvgBody, drawSvgResult, molKeyQuery, molString, pdbIdQuery, pdbString } from '../../contract/mol';
import { molSearchBody, molSearchResult } from '../../contract/molecules';
import { errorResponses, failure, ok as okSchema } from '../../contract/envelope';
import { admetCsv, admetSdf } from '../chem/admet/export';
import { admetRows, smilesItems } from '../chem/admet/table';
import { structures } from '../chem/structures';
import { badRequest } from '../errors';
import { contentDisposition } from '../knowledge/names';
import { nameToSmiles } from '../tools/name-to-smiles';
import { completeSmiles } from '../tools/names/completion';
import { ToolInputError } from '../tools/types';
import { moleculeFingerprints } from '../molecules/fingerprints';
import { moleculeSearch } from '../molecules/search';
import { ok, type App, type Services } from './types';

/** Molfiles of up to 1 MB travel as JSON strings; escaping may add a little. */
const DRAW_BODY_LIMIT = 2 * 1024 * 1024 + 64 * 1024;

/**
 * The name tools refuse input as tools do (ToolInputError, the message the model reads); over HTTP
 * that is a 400. The chemistry service's own refusals are domain errors the error handler maps.
 */
function toolInputError(err: unknown): never {
  if (err instanceof ToolInputError) throw badRequest(err.message);
  throw err;
}

/** SPEC §7 Other: the mol calls — structure drawings, SDF molecules and PDB structures (DESIGN §6). */
export default async function molRoutes(app: App, { config, db, runtime }: Services) {
  const { chem, files, names } = runtime;
  const lookup = structures({ db, files, chem, pdbMirror: config.CSAI_PDB_MIRROR });
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
    const d = await chem.depict(input, { width, height, highlight });
    return ok({
      svg: d.svg,
      canonical_smiles: d.canonicalSmiles,
      formula: d.formula,
      num_atoms: d.numAtoms,
      highlighted_atoms: d.highlightedAtoms,
      highlighted_bonds: d.highlightedBonds,
    });
  });

  app.post('/admet', {
    schema: {
      tags: ['mol'],
      summary: 'ADMET table (SwissADME-style, published methods) of 1–50 SMILES',
      body: admetBody,
      response: { 200: okSchema(admetResult), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    await req.requireUser();
    const molecules = await admetRows(chem, smilesItems(req.body.smiles));
    return ok({ molecules, notes: [] });
  });

  app.post('/admet/export', {
    schema: {
      tags: ['mol'],
      summary: 'The ADMET table of 1–50 SMILES as a CSV or SDF download (values as SDF data fields)',
      // No response schema: the 200 body is the file itself; errors are the usual envelope.
      body: admetExportBody,
    },
  }, async (req, reply) => {
    await req.requireUser();
    const names = req.body.names ?? [];
    const items = smilesItems(req.body.smiles).map((item, i) => ({ ...item, name: names[i] ?? '' }));
    const rows = await admetRows(chem, items);
    let body: string;
    let type: string;
    if (req.body.format === 'csv') {
      body = admetCsv(rows);
      type = 'text/csv; charset=utf-8';
    } else {
      const molfiles: string[] = [];
      // One at a time: a 50-molecule export must not fill the chemistry queue for everyone else.
      for (const row of rows) molfiles.push(await chem.molfile({ smiles: row.smiles }));
      body = admetSdf(rows, molfiles);
      type = 'chemical/x-mdl-sdfile; charset=utf-8';
    }
    return reply
      .header('Content-Type', type)
      .header('Content-Disposition', contentDisposition(`admet.${req.body.format}`))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-cache')
      .send(body);
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

  app.post('/name_to_smiles', {
    schema: {
      tags: ['mol'],
      summary: 'Chemical name (systematic, CAS index, trade, trivial or Chinese) → canonical SMILES and InChIKey; found:false when unknown',
      body: nameToSmilesInput,
      response: { 200: okSchema(nameToSmilesOutput), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    await req.requireUser();
    return ok(await nameToSmiles(names, req.body, AbortSignal.timeout(60_000)).catch(toolInputError));
  });

  app.post('/smiles_completion', {
    schema: {
      tags: ['mol'],
      summary: 'A partial or malformed SMILES → up to 5 valid canonical molecules with the changes made; a valid one → its canonical form and InChIKey',
      body: smilesCompletionInput,
      response: { 200: okSchema(smilesCompletionOutput), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    await req.requireUser();
    return ok(await completeSmiles(req.body.smiles, chem));
  });

  app.post('/search', {
    // A drawn query (molfile) may be long; anything up to the contract's limit gets its 400 from the schema.
    bodyLimit: DRAW_BODY_LIMIT,
    schema: {
      tags: ['mol'],
      summary: 'Molecule database search: exact structure, substructure (SMILES/SMARTS/molfile) or Morgan similarity over every molecule of the documents the user may read',
      body: molSearchBody,
      response: { 200: okSchema(molSearchResult), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    const user = await req.requireUser();
    const { query, mode, threshold, top_k, match_parent, activity } = req.body;
    return ok(await molecules.search(user, { query, mode, threshold, topK: top_k, matchParent: match_parent, activity }));
  });
}
