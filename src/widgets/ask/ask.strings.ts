/** Strings of <csai-ask> (namespace `ask`): Chinese in ask.strings.zh.ts, English in ask.strings.en.ts, loaded when spoken. */
import { zh } from './ask.strings.zh';

export type { AskStringKey } from './ask.strings.zh';

export const askStrings = { zh, en: () => import('./ask.strings.en') };
