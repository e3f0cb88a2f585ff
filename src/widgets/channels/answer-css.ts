/** Typography of rendered answers (markdown output carries no classes twind would see). */
export const answerCss = `
.csai-answer { line-height: 1.7; overflow-wrap: anywhere; }
.csai-answer[data-plain] { white-space: pre-wrap; }
.csai-answer > :first-child { margin-top: 0; }
.csai-answer p, .csai-answer ul, .csai-answer ol, .csai-answer pre, .csai-answer table, .csai-answer blockquote { margin: 0.5em 0; }
.csai-answer ul, .csai-answer ol { padding-left: 1.5em; }
.csai-answer ul { list-style: disc; } .csai-answer ol { list-style: decimal; }
.csai-answer h1, .csai-answer h2, .csai-answer h3, .csai-answer h4 { margin: 0.8em 0 0.4em; font-weight: 600; line-height: 1.3; }
.csai-answer h1 { font-size: 1.3em; } .csai-answer h2 { font-size: 1.2em; } .csai-answer h3 { font-size: 1.1em; }
.csai-answer code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; background: var(--csai-c-line); border-radius: 4px; padding: 0 0.25em; }
.csai-answer pre { background: var(--csai-c-line); border-radius: var(--csai-c-radius); padding: 0.75em; overflow: auto; }
.csai-answer pre code { background: none; padding: 0; }
.csai-answer table { border-collapse: collapse; display: block; overflow: auto; }
.csai-answer th, .csai-answer td { border: 1px solid var(--csai-c-line); padding: 0.25em 0.6em; text-align: start; }
.csai-answer th { font-weight: 600; }
.csai-answer [data-align="left"] { text-align: left; } .csai-answer [data-align="center"] { text-align: center; } .csai-answer [data-align="right"] { text-align: right; }
.csai-answer blockquote { border-left: 3px solid var(--csai-c-line); padding-left: 0.75em; color: var(--csai-c-muted); }
.csai-answer a { color: var(--csai-c-accent); }
.csai-answer a[data-cite] { display: inline-block; font-size: 0.75em; line-height: 1.4; vertical-align: super; padding: 0 0.3em; margin: 0 0.1em; border-radius: 4px; border: 1px solid var(--csai-c-accent); text-decoration: none; }
.csai-answer math[display="block"] { display: block; margin: 0.5em 0; overflow-x: auto; }
.csai-answer csai-molecule { display: block; max-width: 320px; margin: 0.5em 0; }
.csai-answer .csai-structures { display: flex; flex-wrap: wrap; gap: 0.75em; margin: 0.5em 0; }
.csai-answer .csai-structures csai-molecule { flex: 0 1 260px; margin: 0; }
.csai-answer .csai-run-code { display: inline-block; margin: -0.25em 0 0.5em; cursor: pointer; font: inherit; font-size: 0.8em; color: var(--csai-c-accent); background: var(--csai-c-surface); border: 1px solid var(--csai-c-accent); border-radius: var(--csai-c-radius); padding: 0.1em 0.8em; }
.csai-answer .katex-error { color: var(--csai-c-danger); }
`;
