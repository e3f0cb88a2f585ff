import { AppError } from '../errors';

/** The most text one translation sends to the model (about 10–15 pages of a paper). */
export const MAX_TRANSLATE_CHARS = 20_000;

export interface TranslatorConfig {
  baseURL?: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
  timeoutMs: number;
}

const LANGUAGE = { zh: '简体中文', en: 'English' } as const;

/**
 * Translates text through the configured OpenAI-compatible model (SPEC §7 translate). Without a
 * model there is no honest translation to give, so the call says so instead of guessing.
 */
export function translator(config: TranslatorConfig) {
  let client: Promise<import('openai').OpenAI> | undefined;
  const connect = () =>
    (client ??= import('openai').then(
      (sdk) => new sdk.OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? 'not-needed', maxRetries: 1, timeout: config.timeoutMs }),
    ));

  return {
    async translate(text: string, target: keyof typeof LANGUAGE): Promise<{ translation: string; truncated: boolean; model: string }> {
      if (!config.baseURL || !config.model) {
        throw new AppError(503, 'llm_not_configured', '翻译需要配置语言模型（LLM_BASE_URL 和 LLM_MODEL），当前服务器未配置');
      }
      const truncated = text.length > MAX_TRANSLATE_CHARS;
      const source = truncated ? text.slice(0, MAX_TRANSLATE_CHARS) : text;
      let answer;
      try {
        answer = await (await connect()).chat.completions.create({
          model: config.model,
          temperature: 0,
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
        });
      } catch (err) {
        throw new AppError(502, 'llm_failed', `语言模型服务出错，翻译失败：${err instanceof Error ? err.message.slice(0, 200) : '未知错误'}`);
      }
      const translation = answer.choices[0]?.message?.content?.trim();
      if (!translation) throw new AppError(502, 'llm_failed', '语言模型没有返回译文，请稍后重试');
      return { translation, truncated, model: answer.model || config.model };
    },
  };
}
