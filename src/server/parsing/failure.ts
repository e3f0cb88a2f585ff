/**
 * What the owner (and everyone a document is shared with) reads when parsing fails: a plain
 * sentence, never a server path, a command line or a library's message. The full
 * error goes to the log.
 */
export function parseFailureText(err: unknown): string {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  if (/password/i.test(message)) return '文件已加密，无法解析，请上传未加密的文件';
  if (/invalid pdf|pdf header|xref|missing pdf|unexpected (end|eof)|bad (xref|catalog)|formaterror/i.test(message)) return '文件已损坏或格式不正确，无法解析';
  if (message.includes('解析超时')) return '解析超时：文件过大或过于复杂';
  if (message.includes('解析进程意外退出')) return '解析进程意外退出';
  return '文件无法解析，请确认文件完好后重新上传';
}
