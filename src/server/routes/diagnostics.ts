import { diagnostics } from '../../contract/diagnostics';
import { errorResponses, ok as okSchema } from '../../contract/envelope';
import { usersRepo } from '../auth/accounts';
import { engineOf } from '../db/dialect';
import { missingSetup } from '../online/sources';
import { ocrEngineStatus } from '../parsing/ocr';
import { requestLanguage } from '../i18n';
import { osraVersion } from '../parsing/chemistry/osra';
import { ok, type App, type Services } from './types';

/** GET /api/v1/diagnostics (signed-in users): version, answer engine, storage, optional services. */
export default async function diagnosticsRoutes(app: App, { config, db, version, runtime }: Services) {
  app.get('/diagnostics', {
    schema: { tags: ['general'], summary: 'What this server runs with (for the /test page); never secrets', response: { 200: okSchema(diagnostics), ...errorResponses } },
  }, async (req) => {
    const { userId } = await req.requireUser();
    // Where the server keeps its files is for administrators, not every user.
    const admin = Boolean((await usersRepo(db).byId(userId))?.is_admin);
    const ocr = await ocrEngineStatus();
    return ok({
      version,
      answer_engine: config.LLM_BASE_URL ? ('openai' as const) : ('local' as const),
      llm_model: config.LLM_BASE_URL ? (config.LLM_MODEL ?? null) : null,
      llm_reasoning_model: config.LLM_BASE_URL ? (config.LLM_REASONING_MODEL ?? null) : null,
      embedding_model: config.EMBEDDING_BASE_URL ? (config.EMBEDDING_MODEL ?? null) : null,
      storage: { kind: engineOf(db) === 'postgres' ? ('postgresql' as const) : ('sqlite' as const), data_dir: admin ? config.dataDir : null },
      services: { smtp: !!config.SMTP_URL, llm: !!config.LLM_BASE_URL, embeddings: !!config.EMBEDDING_BASE_URL, dev_outbox: config.CSAI_DEV_OUTBOX },
      tools: runtime.tools.groups(undefined, { admin, lang: await requestLanguage(req, db) }).flatMap((g) => g.tools.map((t) => ({ value: t.value, label: t.label, group: g.label, enabled: t.enabled, description: t.description }))),
      online: {
        web: !!runtime.online.web,
        literature: !!runtime.online.literature,
        patents: !!runtime.online.patents,
        setup: admin ? missingSetup(runtime.online) : {},
      },
      ocr_engine: ocr.engine,
      ocr_detail: admin ? ocr.detail : null,
      structure_recognition: { osra: await osraVersion() },
      mcp_path: '/mcp',
      node_version: process.version,
      uptime_seconds: Math.round(process.uptime()),
    });
  });
}
