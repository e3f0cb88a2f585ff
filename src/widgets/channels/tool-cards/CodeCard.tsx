import { useEffect, useState } from 'react';
import { codeExecutionResult, type CodeArtifact, type CodeExecutionResult } from '../../../contract/code';
import { createChannelApi } from '../../../core/channel-api';
import { useApi, useHost, useT } from '../../shared/host-context';
import { saveBlob } from '../../shared/save-blob';
import { addStrings } from '../../shared/i18n';
import type { ToolCardProps } from './types';
import { codeCardStrings } from './tool-cards.strings';

addStrings('tool-cards-code', codeCardStrings);

const kb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** A picture the run kept, fetched with the element's credentials (the route serves it only to its owner). */
function ArtifactImage({ artifact }: { artifact: CodeArtifact }) {
  const client = useApi();
  const t = useT('tool-cards-code');
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    createChannelApi(client).codeArtifact(artifact.id, { quiet: true }).then(
      ({ blob }) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob.type ? blob : new Blob([blob], { type: artifact.mime }));
        setUrl(objectUrl);
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [client, artifact.id, artifact.mime]);
  if (failed) return <p className="m-0 text-xs text-danger">{t('image_failed', { name: artifact.name })}</p>;
  return (
    <figure part="code-image" className="m-0 flex flex-col gap-1">
      {url ? <img src={url} alt={t('image_alt', { name: artifact.name })} className="max-w-full h-auto rounded-csai border border-line bg-surface" /> : <span className="text-xs text-muted">{t('loading')}</span>}
      <figcaption className="text-xs text-muted">{artifact.name}</figcaption>
    </figure>
  );
}

/** A file the run kept, offered for download. */
function ArtifactFile({ artifact }: { artifact: CodeArtifact }) {
  const client = useApi();
  const t = useT('tool-cards-code');
  const { root } = useHost();
  const save = async () => {
    const { blob } = await createChannelApi(client).codeArtifact(artifact.id);
    saveBlob(root, blob, artifact.name.split('/').pop() ?? artifact.name);
  };
  return (
    <li>
      <button type="button" part="code-file" className="cursor-pointer bg-transparent border-0 p-0 text-accent underline text-sm" onClick={() => void save().catch(() => undefined)}>
        {artifact.name}
      </button>{' '}
      <span className="text-xs text-muted">{t('size', { size: kb(artifact.size) })}</span>
    </li>
  );
}

/** One sandboxed run: how it ended, stdout/stderr (cut with a note), pictures and files. */
export function CodeRun({ out }: { out: CodeExecutionResult }) {
  const t = useT('tool-cards-code');
  const images = out.artifacts.filter((a) => a.kind === 'image');
  const files = out.artifacts.filter((a) => a.kind === 'file');
  const bad = out.status !== 'ok';
  return (
    <div part="code-run" data-status={out.status} className="flex flex-col gap-2 text-sm text-ink">
      <p part="code-status" role={bad ? 'alert' : 'status'} className={`m-0 ${bad ? 'text-danger' : 'text-success'}`}>
        {out.message}
        <span className="text-xs text-muted"> {t('meta', { code: out.exit_code ?? '—', seconds: (out.duration_ms / 1000).toFixed(1) })}</span>
      </p>
      {out.inputs.length > 0 && <p className="m-0 text-xs text-muted">{t('inputs', { files: out.inputs.map((n) => `/input/${n}`).join('、') })}</p>}
      {out.stdout && (
        <div>
          <div className="text-xs text-muted" title="stdout">{t('stdout')}{out.stdout_truncated ? ` ${t('truncated')}` : ''}</div>
          <pre part="code-stdout" className="m-0 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded-csai bg-line p-2 text-xs font-mono">{out.stdout}</pre>
        </div>
      )}
      {out.stderr && (
        <details open={bad}>
          <summary className="cursor-pointer text-xs text-muted" title="stderr">{t('stderr')}{out.stderr_truncated ? ` ${t('truncated')}` : ''}</summary>
          <pre part="code-stderr" className="m-0 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded-csai bg-line p-2 text-xs font-mono text-danger">{out.stderr}</pre>
        </details>
      )}
      {images.length > 0 && (
        <div className="flex flex-wrap gap-3">
          {images.map((a) => (
            <ArtifactImage key={a.id} artifact={a} />
          ))}
        </div>
      )}
      {files.length > 0 && (
        <div>
          <div className="text-xs text-muted">{t('files')}</div>
          <ul className="m-0 pl-4">
            {files.map((a) => (
              <ArtifactFile key={a.id} artifact={a} />
            ))}
          </ul>
        </div>
      )}
      {!out.stdout && !out.stderr && !out.artifacts.length && <p className="m-0 text-xs text-muted">{t('no_output')}</p>}
    </div>
  );
}

/** The code_execution result card. */
export default function CodeCard({ ok, content, data }: ToolCardProps) {
  const parsed = codeExecutionResult.safeParse(data);
  if (!ok || !parsed.success) return <p part="tool-card" className="m-0 text-sm text-ink whitespace-pre-wrap">{content}</p>;
  return <CodeRun out={parsed.data} />;
}
