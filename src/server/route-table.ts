import type { FastifyInstance } from 'fastify';

/** One registered route: its method and its full URL pattern (`/api/v1/knowledge_base/doc/:id`). */
export interface RouteEntry {
  method: string;
  url: string;
}

const tables = new WeakMap<object, RouteEntry[]>();

/**
 * Records every route registered on `app` from now on (Fastify's onRoute hook sees the routes of
 * every plugin, with their prefixes). The authorisation matrix (tests/server/security) reads the
 * table, so a route added later without an expectation fails that test. HEAD routes Fastify adds
 * beside each GET are left out: they run the GET handler.
 */
export function collectRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url: route.url });
  });
}

/** The routes `app` registered since {@link collectRoutes}, in registration order. */
export const routeTable = (app: FastifyInstance): readonly RouteEntry[] => tables.get(app) ?? [];
