import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { ToolEntry, ToolGroup } from '../../contract/channel';
import { TOOL_GROUPS, type ToolName, type ToolResultPayload } from '../../contract/tools';
import { localizeMessage, serverT, toolText, type Lang } from '../i18n';
import { ToolInputError, type BuiltTool, type ToolAvailability, type ToolContext, type ToolDefinition, type ToolServices, type ToolSource } from './types';

/** A tool's arguments as JSON Schema: what the model is offered and what MCP lists (one source, so both agree). */
export type ToolJsonSchema = Record<string, unknown> & { type: 'object' };

/** A callable tool as the engines and MCP see it. */
export interface OfferedTool {
  /** A catalogue `ToolName`, or a dynamic name of a tool source (`mcp__<server>__<tool>`). */
  name: string;
  label: string;
  description: string;
  inputSchema: ToolJsonSchema;
}

/** Who a listing or a selection is for: SPEC §6 greys some tools out for directory (LDAP) users. */
export interface ToolAudience {
  directory: boolean;
}

/**
 * How a listing is written: administrators see why a tool is off and how to enable it
 * (install hints, environment variables) and a usable tool's notes; other users see only that it is
 * off and to ask their administrator. In the user's language. Without one: an administrator's, in Chinese.
 */
export interface ToolListView {
  admin: boolean;
  lang: Lang;
}

/** The one tool registry (DESIGN §3): GET /tools, the engines' function calls, the local engine and MCP. */
export interface ToolRegistry {
  /** SPEC §9 groups with SPEC §3 tool entries; every catalogued tool, usable or not (with why not). `ldap_disabled` is set for a directory audience. */
  groups(audience?: ToolAudience, view?: ToolListView): ToolGroup[];
  /** The usable tools among `names` (tool values or ids), in catalog order; every usable tool when `names` is undefined. */
  select(names?: readonly string[], audience?: ToolAudience): OfferedTool[];
  /** Whether this user signs in through the directory (SPEC §6 ldap_disabled applies). */
  audience(userId: string): Promise<ToolAudience>;
  /** `names` without the tools SPEC §6 disables for this audience. */
  allowedFor(names: readonly string[], audience: ToolAudience): string[];
  /** Whether `name` is usable now. */
  isEnabled(name: string): boolean;
  /**
   * Runs a tool: the input is checked with its schema (bad input → ok:false with a Chinese
   * message), the call has a time limit and stops with `ctx.signal`, the output is checked with
   * its schema. Only a stop through `ctx.signal` throws.
   */
  run(name: string, input: unknown, ctx: ToolContext): Promise<ToolResultPayload>;
}

/** SPEC §6: the alternate list (CSAI_TOOLS_RESTRICTED=1) disables ADMET and omits these. */
const RESTRICTED_OFF: ToolName[] = ['admet'];
const RESTRICTED_OMIT: ToolName[] = ['docking_submit', 'task_query'];
const RESTRICTED_REASON = '本服务器使用受限工具列表（CSAI_TOOLS_RESTRICTED=1），管理员已停用此工具；去掉该设置并重启服务后启用。';
/** SPEC §6: a tool LDAP_DISABLED_TOOLS lists, asked for by a directory user. */
export const ldapDisabledMessage = (label: string) => `“${label}”不可用：管理员已为单位目录（LDAP）账号停用此工具，如需使用请联系管理员。`;

/** Default longest run of a tool call. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** Arguments larger than this (as JSON) are refused before parsing: no tool needs a megabyte of input. */
export const MAX_TOOL_INPUT_BYTES = 256 * 1024;

export const toolMessages = {
  unknown: (name: string) => `没有名为“${name}”的工具`,
  tooLarge: `工具参数过大（超过${MAX_TOOL_INPUT_BYTES / 1024} KB），请减少输入内容`,
  timeout: (seconds: number) => `工具运行超时（超过${seconds}秒），已停止`,
  badOutput: '工具返回的结果格式不正确，已忽略该结果',
  failed: '工具运行失败，请稍后重试',
} as const;

interface Slot {
  name: ToolName;
  label: string;
  tool: BuiltTool;
  schema: ToolJsonSchema;
  restricted: 'off' | 'omit' | null;
}

/** The arguments of a tool as JSON Schema (zod's input side: defaults make a field optional). */
export function inputJsonSchema(definition: Pick<BuiltTool, 'name' | 'input'>): ToolJsonSchema {
  const { $schema: _drop, ...schema } = z.toJSONSchema(definition.input, { io: 'input', unrepresentable: 'any' });
  if (schema.type !== 'object') throw new Error(`tool ${definition.name}: the input schema must be an object`);
  return { ...schema, type: 'object' };
}

/** A zod issue as a Chinese sentence (the schema's own message when it is Chinese). */
export function issueText(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? `参数 ${issue.path.map(String).join('.')}` : '参数';
  if (/\p{Script=Han}/u.test(issue.message)) return issue.path.length ? `${where}：${issue.message}` : issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return /received undefined/.test(issue.message) ? `缺少${where}` : `${where}的类型不正确，应为 ${issue.expected}`;
    case 'too_big':
      return `${where}过大或过长（上限 ${String(issue.maximum)}）`;
    case 'too_small':
      return `${where}过小或过短（下限 ${String(issue.minimum)}）`;
    case 'unrecognized_keys':
      return `不支持的参数：${issue.keys.join('、')}`;
    case 'invalid_value':
      return `${where}的取值无效`;
    case 'invalid_format':
      return `${where}的格式不正确`;
    default:
      return `${where}无效`;
  }
}

const fail = (content: string): ToolResultPayload => ({ ok: false, content });

/** Builds every registered tool from the start-up services. */
export const buildTools = (definitions: readonly ToolDefinition[], services: ToolServices): BuiltTool[] =>
  definitions.map(({ build, ...entry }) => ({ ...build(services), ...entry }));

/**
 * The registry over the built tools, made once at start-up: its groups and order are those of the
 * SPEC §9 catalogue (`TOOL_CATALOG`), holding the tools registered. Two tools of one name are a
 * programming error. `restricted`: SPEC §6 alternate list.
 */
export function createToolRegistry(
  built: readonly BuiltTool[],
  {
    restricted,
    log,
    ldapDisabled = [],
    isDirectoryUser = async () => false,
    sources = [],
  }: {
    restricted: boolean;
    log: Pick<FastifyBaseLogger, 'error'>;
    /** SPEC §6: tools greyed out and refused for directory users (LDAP_DISABLED_TOOLS). */
    ldapDisabled?: readonly ToolName[];
    isDirectoryUser?: (userId: string) => Promise<boolean>;
    /** Tools beside the catalogue (MCP servers), run under the same limits. */
    sources?: readonly ToolSource[];
  },
): ToolRegistry {
  const offForDirectory = new Set<string>(ldapDisabled);
  const ldapOff = (name: string, audience: ToolAudience | undefined) => !!audience?.directory && offForDirectory.has(name);
  const slots = new Map<ToolName, Slot>();
  for (const tool of built) {
    if (slots.has(tool.name)) throw new Error(`tool ${tool.name} is built twice`);
    const rule = !restricted ? null : RESTRICTED_OFF.includes(tool.name) ? 'off' : RESTRICTED_OMIT.includes(tool.name) ? 'omit' : null;
    slots.set(tool.name, { name: tool.name, label: tool.label, tool, schema: inputJsonSchema(tool), restricted: rule });
  }
  // Catalogue order, whatever the order of registration.
  const ordered = TOOL_GROUPS.map((g) => ({ ...g, slots: [...slots.values()].filter((slot) => slot.tool.group === g.id) }));
  const inOrder = ordered.flatMap((g) => g.slots);

  const availability = (slot: Slot): ToolAvailability => {
    if (slot.restricted) return { enabled: false, reason: RESTRICTED_REASON };
    try {
      return slot.tool.availability();
    } catch (err) {
      log.error({ err, tool: slot.name }, 'tool availability check failed');
      return { enabled: false, reason: '检查此工具是否可用时出错，请查看服务器日志。' };
    }
  };
  const usable = (name: string) => {
    const slot = slots.get(name as ToolName);
    return slot && availability(slot).enabled ? slot : undefined;
  };
  const sourceOf = (name: string) => (slots.has(name as ToolName) ? undefined : sources.find((s) => s.has(name)));

  /**
   * Runs `call` with the time limit and the answer's stop signal: a call that ignores its signal
   * still cannot hold the answer past its limit. Only a stop through `ctx.signal` throws.
   */
  async function limited<T>(name: string, timeoutMs: number, ctx: ToolContext, call: (signal: AbortSignal) => Promise<T>): Promise<{ value: T } | ToolResultPayload> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timer.signal]);
    const stopped = new AbortController(); // ends the wait below once the call is over
    try {
      const running = call(signal);
      // A late failure of a call given up on (time limit, stop) is nobody's to handle.
      running.catch(() => undefined);
      const value = await Promise.race([
        running,
        new Promise<never>((_, reject) => {
          const onAbort = () => reject(new Error('aborted'));
          if (signal.aborted) onAbort();
          signal.addEventListener('abort', onAbort, { once: true, signal: stopped.signal });
        }),
      ]);
      return { value };
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      if (timer.signal.aborted) return fail(toolMessages.timeout(Math.round(timeoutMs / 1000)));
      if (err instanceof ToolInputError) return fail(err.message);
      log.error({ err, tool: name }, 'tool failed');
      return fail(toolMessages.failed);
    } finally {
      clearTimeout(timeout);
      stopped.abort();
    }
  }

  return {
    groups(audience, view = { admin: true, lang: 'zh' }) {
      const t = serverT(view.lang);
      const en = view.lang === 'en';
      const detail = (text: string) => localizeMessage(text, view.lang);
      const catalogued = ordered
        .filter((g) => g.slots.length > 0)
        .map((g) => ({
          id: g.id,
          label: (en && toolText('groups', g.id)) || g.label,
          tools: g.slots
            .filter((slot) => slot.restricted !== 'omit')
            .map((slot): ToolEntry => {
              const state = availability(slot);
              const description = (en && toolText('descriptions', slot.name)) || slot.tool.description;
              return {
                id: slot.name,
                value: slot.name,
                label: (en && toolText('labels', slot.name)) || slot.label,
                icon: slot.tool.icon,
                description: state.enabled
                  ? state.note && view.admin
                    ? t('tool.with_note', { description, note: detail(state.note) })
                    : description
                  : t('tool.unavailable', { description, reason: view.admin ? detail(state.reason) : t('tool.unavailable_user') }),
                enabled: state.enabled,
                ldap_disabled: ldapOff(slot.name, audience),
              };
            }),
        }));
      return [...catalogued, ...sources.flatMap((source) => source.groups())];
    },

    select(names, audience) {
      const wanted = names ? new Set(names) : undefined;
      const out: OfferedTool[] = [];
      for (const slot of inOrder) {
        if (wanted && !wanted.has(slot.name)) continue;
        if (ldapOff(slot.name, audience)) continue;
        if (!usable(slot.name)) continue;
        out.push({ name: slot.name, label: slot.label, description: slot.tool.description, inputSchema: slot.schema });
      }
      for (const tool of sources.flatMap((source) => source.offered())) {
        if (!wanted || wanted.has(tool.name)) out.push(tool);
      }
      return out;
    },

    isEnabled: (name) => !!usable(name) || sources.some((source) => source.offered().some((t) => t.name === name)),

    audience: async (userId) => ({ directory: offForDirectory.size > 0 && (await isDirectoryUser(userId)) }),

    allowedFor: (names, audience) => names.filter((n) => !ldapOff(n, audience)),

    async run(name, input, ctx) {
      // What the server wrote (a refusal, a time-out, a tool's input error) in the asker's language.
      const result = await runOne(name, input, ctx);
      const lang = ctx.viewer.lang ?? 'zh';
      return result.ok || lang === 'zh' ? result : { ...result, content: localizeMessage(result.content, lang) };
    },
  };

  /** One call of a catalogued tool or a source's, its failures in Chinese. */
  async function runOne(name: string, input: unknown, ctx: ToolContext): Promise<ToolResultPayload> {
    const source = sourceOf(name);
    if (source) return runFromSource(source, name, input, ctx);
    const slot = slots.get(name as ToolName);
    if (!slot) return fail(toolMessages.unknown(name));
    const state = availability(slot);
    if (!state.enabled) return fail(`“${slot.label}”不可用：${state.reason}`);
    // SPEC §6, enforced here and not only greyed out: whoever calls (model, MCP client), a directory user cannot run it.
    if (offForDirectory.has(slot.name) && (await isDirectoryUser(ctx.viewer.userId))) return fail(ldapDisabledMessage(slot.label));
    const tool = slot.tool;
    let size: number;
    try {
      size = Buffer.byteLength(JSON.stringify(input ?? null));
    } catch {
      return fail('工具参数无法读取');
    }
    if (size > MAX_TOOL_INPUT_BYTES) return fail(toolMessages.tooLarge);
    const parsed = tool.input.safeParse(input ?? {});
    if (!parsed.success) return fail(parsed.error.issues.slice(0, 3).map(issueText).join('；'));

    const outcome = await limited(name, tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, ctx, (signal) => tool.run(parsed.data, { ...ctx, signal }));
    if (!('value' in outcome)) return outcome;
    const output = outcome.value;
    const checked = tool.output.safeParse(output);
    if (!checked.success) {
      log.error({ tool: name, issues: checked.error.issues.slice(0, 5) }, 'tool output does not match its schema');
      return fail(toolMessages.badOutput);
    }
    return { ok: true, content: tool.summarize(checked.data), data: checked.data };
  }

  /** A tool source's call under the same argument cap, time limit and stop signal as the catalogue's tools. */
  async function runFromSource(source: ToolSource, name: string, input: unknown, ctx: ToolContext): Promise<ToolResultPayload> {
    let size: number;
    try {
      size = Buffer.byteLength(JSON.stringify(input ?? null));
    } catch {
      return fail('工具参数无法读取');
    }
    if (size > MAX_TOOL_INPUT_BYTES) return fail(toolMessages.tooLarge);
    const args = input ?? {};
    if (typeof args !== 'object' || Array.isArray(args)) return fail('工具参数必须是 JSON 对象');
    const outcome = await limited(name, source.timeoutMs(name), ctx, (signal) => source.call(name, { ...args }, signal));
    return 'value' in outcome ? outcome.value : outcome;
  }
}
