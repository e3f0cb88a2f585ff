import type { AskModel } from '../../core/ask-model';
import { useT } from '../shared/host-context';
import { useSignalValue } from '../shared/use-signal';

/** The tools toggle's hover panel: every catalogued tool by group, usable ones with a checkbox (SPEC §4). */
export function ToolsPanel({ model }: { model: AskModel }) {
  const t = useT('ask');
  const tools = useSignalValue(model.$tools);
  const enabled = useSignalValue(model.$enabledTools);
  const none = tools !== null && !tools.some((g) => g.tools.some((x) => x.enabled && !x.ldap_disabled));
  return (
    <div part="tools-panel" role="group" aria-label={t('tools_panel')} className="absolute z-10 left-0 bottom-full mb-1 w-64 max-h-72 overflow-auto rounded-csai border border-line bg-surface text-ink p-2 text-xs shadow">
      {!tools && <span className="text-muted">{t('tools_loading')}</span>}
      {none && <p part="tools-none" className="m-0 mb-1 text-muted">{t('tools_none')}</p>}
      {tools?.map((g) => (
        <fieldset key={g.id} part="tool-group" className="border-0 p-0 m-0 mb-1">
          <legend className="font-semibold">{g.label}</legend>
          {g.tools.map((tool) => {
            const usable = tool.enabled && !tool.ldap_disabled;
            return (
              <label key={tool.id} part="tool" data-disabled={usable ? undefined : 'true'} title={tool.description} className={`flex items-center gap-2 py-0.5 ${usable ? 'cursor-pointer' : 'opacity-50 cursor-not-allowed'}`}>
                <input type="checkbox" disabled={!usable} checked={usable && (enabled === null || enabled.has(tool.value))} onChange={() => model.toggleTool(tool.value)} />
                <span>{tool.label}</span>
                {!usable && <span className="text-muted">{t('tool_unavailable')}</span>}
              </label>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}
