import { describe, expect, it } from 'vitest';
import { parseFailureText } from '../../../src/server/parsing/failure';

describe('the text a failed parse shows (issue 16 #5)', () => {
  it('says what happened in plain words, never the underlying message', () => {
    const cases: Array<[unknown, string]> = [
      [Object.assign(new Error('No password given'), { name: 'PasswordException' }), '文件已加密，无法解析，请上传未加密的文件'],
      [Object.assign(new Error('Invalid PDF structure.'), { name: 'InvalidPDFException' }), '文件已损坏或格式不正确，无法解析'],
      [new Error('解析超时'), '解析超时：文件过大或过于复杂'],
      [new Error('解析进程意外退出（137）'), '解析进程意外退出'],
      [new Error('Command failed: tesseract /srv/csai/data/files/d2/abc -l chi_sim+eng stdout'), '文件无法解析，请确认文件完好后重新上传'],
      ['ENOENT: no such file or directory, open /data/files/x', '文件无法解析，请确认文件完好后重新上传'],
    ];
    for (const [err, text] of cases) {
      expect(parseFailureText(err)).toBe(text);
      expect(parseFailureText(err)).not.toMatch(/\//);
    }
  });
});
