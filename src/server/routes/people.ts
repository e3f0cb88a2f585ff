import { z } from 'zod';
import { department, personSearchQuery, personSearchResult } from '../../contract/general';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { directory } from '../people/directory';
import { ok, type App, type Services } from './types';

/** Departments and the person/department search used by sharing dialogs. */
export default async function peopleRoutes(app: App, { db }: Services) {
  const dir = directory(db);

  app.get('/departments', {
    schema: { tags: ['people'], summary: 'All departments with their member counts', response: { 200: okSchema(z.array(department)), ...errorResponses } },
  }, async (req) => {
    await req.requireUser();
    return ok(await dir.departments());
  });

  app.get('/search_person_department', {
    schema: {
      tags: ['people'],
      summary: 'People and departments matching a keyword (names, e-mail, phone, department)',
      querystring: personSearchQuery,
      response: { 200: okSchema(personSearchResult), ...errorResponses },
    },
  }, async (req) => {
    await req.requireUser();
    return ok(await dir.search(req.query.keyword));
  });
}
