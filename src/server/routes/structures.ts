import { errorResponses, failure, ok as okSchema } from '../../contract/envelope';
import { idParams } from '../../contract/knowledge';
import { correctStructureBody, docStructure, docStructuresResult, structureParams } from '../../contract/structures';
import { structureService } from '../chemdocs/service';
import { ok, type App, type Services } from './types';

const tags = ['knowledge_base'];

/** The structures read from a document's drawings, and their correction (under /knowledge_base). */
export default async function structureRoutes(app: App, { db, runtime }: Services) {
  const structures = structureService(db, runtime.chem);

  app.get('/doc/:id/structures', {
    schema: { tags, summary: "The structures recognised in a document's drawings (a reader's correction wins)", params: idParams, response: { 200: okSchema(docStructuresResult), ...errorResponses } },
  }, async (req) => ok({ structures: await structures.list(await req.requireUser(), req.params.id) }));

  app.put('/doc/:id/structures/:sid', {
    bodyLimit: 2 * 1024 * 1024 + 64 * 1024,
    schema: {
      tags,
      summary: 'Correct a recognised structure (SMILES or molfile; any reader of the document; stored with who made it)',
      params: structureParams,
      body: correctStructureBody,
      response: { 200: okSchema(docStructure), ...errorResponses, 503: failure },
    },
  }, async (req) => {
    const viewer = await req.requireUser();
    const input = req.body.smiles !== undefined ? { smiles: req.body.smiles } : { molfile: req.body.molfile ?? '' };
    return ok(await structures.correct(viewer, req.params.id, req.params.sid, input), '结构已更正');
  });
}
