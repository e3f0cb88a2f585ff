import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { sarExportQuery, sarResult } from '../../contract/chemdocs';
import { idParams } from '../../contract/knowledge';
import { ChemInputError } from '../chem/engine';
import { sarCsv, sarSdf, sarTable } from '../chemdocs/sar';
import { contentDisposition } from '../knowledge/names';
import { ok, type App, type Services } from './types';

const tags = ['knowledge_base'];

/** A document's structure–activity table and its CSV / SDF export (under /knowledge_base). */
export default async function sarRoutes(app: App, { db, runtime }: Services) {
  const { chem } = runtime;
  const user = async (req: { requireUser: () => Promise<{ userId: string }> }) => ({ userId: (await req.requireUser()).userId });

  app.get('/doc/:id/sar', {
    schema: { tags, summary: "The document's structure–activity table: compound labels, linked structures and activities (page and box of each)", params: idParams, response: { 200: okSchema(sarResult), ...errorResponses } },
  }, async (req) => ok(await sarTable(db, await user(req), req.params.id)));

  app.get('/doc/:id/sar/export', {
    schema: { tags, summary: 'The structure–activity table as a CSV or SDF download (activities as SDF data fields)', params: idParams, querystring: sarExportQuery },
  }, async (req, reply) => {
    const sar = await sarTable(db, await user(req), req.params.id);
    let body: string;
    let type: string;
    if (req.query.format === 'csv') {
      body = sarCsv(sar);
      type = 'text/csv; charset=utf-8';
    } else {
      const molfiles = new Map<string, string>();
      // One at a time: an export must not fill the chemistry queue for everyone else.
      for (const row of sar.rows) {
        if (!row.smiles || molfiles.has(row.smiles)) continue;
        try {
          molfiles.set(row.smiles, await chem.molfile({ smiles: row.smiles }));
        } catch (err) {
          // A structure RDKit cannot write as a molfile is left out of the SDF; anything else fails the export.
          if (!(err instanceof ChemInputError)) throw err;
        }
      }
      body = sarSdf(sar, molfiles);
      type = 'chemical/x-mdl-sdfile; charset=utf-8';
    }
    const base = sar.title.replace(/\.[A-Za-z0-9]{1,5}$/, '');
    return reply
      .header('Content-Type', type)
      .header('Content-Disposition', contentDisposition(`${base}-sar.${req.query.format}`))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-cache')
      .send(body);
  });
}
