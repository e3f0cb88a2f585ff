import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import type { FastifySerializerCompiler } from 'fastify/types/schema';

/**
 * Response serialisation from the zod contract. Each response schema is turned into JSON Schema
 * once and compiled with fast-json-stringify (Fastify's own fast path), so only declared fields
 * leave the server — a stray column such as password_hash cannot leak — at a fraction of the cost
 * of parsing every response with zod. A schema JSON Schema cannot express falls back to zod.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  try {
    const jsonSchema = z.toJSONSchema(route.schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  } catch {
    return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
  }
};
