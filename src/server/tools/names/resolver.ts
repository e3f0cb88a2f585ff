import type { FastifyBaseLogger } from 'fastify';
import type { ChatCompletion } from '../../answering/engine';
import type { ChemService } from '../../chem/service';
import type { Config } from '../../config';
import type { NameResolver } from '../types';

/** What the name resolver is built from (runtime.ts). */
export interface NameResolverDeps {
  config: Config;
  chem: ChemService;
  log: FastifyBaseLogger;
  chat?: ChatCompletion;
}

const NOT_BUILT = '本服务器尚未启用化学名称解析（OPSIN 与常用药物名称表）：此版本未包含该功能，升级到包含“化学名转SMILES”的 CSAI 版本后即可使用。';

/**
 * Name → structure. This build has no resolver: it says so, and resolves nothing (never an
 * invented structure). The OPSIN-backed resolver replaces this module.
 */
export function createNameResolver(_deps: NameResolverDeps): NameResolver {
  return {
    resolve: async () => null,
    availability: () => ({ enabled: false, reason: NOT_BUILT }),
    close: async () => undefined,
  };
}
