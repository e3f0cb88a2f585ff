import { DomainError } from '../errors';

/** The most text one translation sends to the model (about 10–15 pages of a paper). */
export const MAX_TRANSLATE_CHARS = 20_000;

export interface TranslatorConfig {
  baseURL?: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
  /** LLM_IDLE_TIMEOUT_MS: the longest silence of the model, before its first words and between them. */
  timeoutMs: number;
}

const LANGUAGE = { zh: '简体中文', en: 'English' } as const;

/** A duration for a message: whole seconds, or milliseconds under one second. */
const quietFor = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} 秒` : `${ms} 毫秒`);

/**
 * Translates text through the configured OpenAI-compatible model (SPEC §7 translate). Without a
 * model there is no honest translation to give, so the call says so instead of guessing.
 *
 * The answer is streamed and the idle limit applies to the gaps between its pieces, as for
 * answers: a 20,000-character document takes the model minutes to write, far longer than the
 * limit, and a request waiting for the whole reply in one piece failed on every long document.
 */
export function translator(config: TranslatorConfig) {
  let client: Promise<import('openai').OpenAI> | undefined;
  const connect = () =>
    (client ??= import('openai').then(
      (sdk) => new sdk.OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? 'not-needed', maxRetries: 1, timeout: config.timeoutMs }),
    ));

  return {
    /** `signal`: the caller went away; the model is stopped. */
    async translate(text: string, target: keyof typeof LANGUAGE, signal?: AbortSignal): Promise<{ translation: string; truncated: boolean; model: string }> {
      if (!config.baseURL || !config.model) {
        throw new DomainError('llm_not_configured', '翻译需要配置语言模型（LLM_BASE_URL 和 LLM_MODEL），当前服务器未配置');
      }
      const truncated = text.length > MAX_TRANSLATE_CHARS;
      const source = truncated ? text.slice(0, MAX_TRANSLATE_CHARS) : text;
      const ctl = new AbortController();
      const stop = () => ctl.abort();
      signal?.addEventListener('abort', stop, { once: true });
      let idle = false;
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          idle = true;
          ctl.abort();
        }, config.timeoutMs);
      };
      let translation = '';
      let model = config.model;
      const stopped = () => {
        if (idle) return new DomainError('llm_failed', `语言模型超过 ${quietFor(config.timeoutMs)}没有输出，翻译失败，请稍后重试`);
        if (signal?.aborted) return new DomainError('aborted', '翻译已取消');
        return undefined;
      };
      try {
        arm();
        const stream = await (await connect()).chat.completions.create(
          {
            model: config.model,
            temperature: 0,
            stream: true,
            messages: [
              {
                role: 'system',
                content:
                  `Translate the user's text into ${LANGUAGE[target]}. Keep the markdown structure, numbers, units, ` +
                  'chemical names, SMILES strings, CAS numbers, gene and protein symbols and citations exactly as they are. ' +
                  'Answer with the translation only.',
              },
              { role: 'user', content: source },
            ],
          },
          { signal: ctl.signal },
        );
        for await (const chunk of stream) {
          arm();
          if (chunk.model) model = chunk.model;
          translation += chunk.choices[0]?.delta?.content ?? '';
        }
      } catch (err) {
        throw stopped() ?? new DomainError('llm_failed', `语言模型服务出错，翻译失败：${err instanceof Error ? err.message.slice(0, 200) : '未知错误'}`);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
      }
      // The SDK's stream ends quietly when aborted: a cut-off translation is not an answer.
      const cut = stopped();
      if (cut) throw cut;
      translation = translation.trim();
      if (!translation) throw new DomainError('llm_failed', '语言模型没有返回译文，请稍后重试');
      return { translation, truncated, model };
    },
  };
}
