import { expect, test, type Locator } from '@playwright/test';
import { expectAccessible, signInOnPage, signUpThroughOutbox } from './helpers';

// A chemist puts a structure into the chemical editor of the question box, inserts its SMILES at
// the caret, asks, and sees the structure drawn in the conversation: under the question and in
// the local engine's answer (no language model configured), checked by RDKit on the server.
const stamp = Date.now().toString(36);
const user = { email: `drawer-${stamp}@example.com`, name: '钱合成', password: 'Benzene-ring-6' };
const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';

/** Whether a <csai-molecule> drew a real SVG (paths parsed from the server's drawing). */
const drewSvg = (molecule: Locator) =>
  expect
    .poll(() => molecule.evaluate((el) => el.shadowRoot?.querySelector('[part~="drawing"] > svg')?.querySelectorAll('path').length ?? 0), { timeout: 60_000 })
    .toBeGreaterThan(3);

test.beforeAll(async ({ baseURL }) => {
  await signUpThroughOutbox(baseURL!, user);
});

test('paste a structure in the chemical editor, insert its SMILES at the caret, ask, and see it drawn in the answer', async ({ page }) => {
  test.setTimeout(240_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await signInOnPage(page, user);

  const ask = page.locator('csai-ask');
  const input = ask.locator('[part~="input"]');
  const before = '阿司匹林 ';
  const after = ' 的作用机制是什么？';
  await input.fill(`${before}${after}`);
  // The caret between the name and the question: the SMILES goes there.
  await input.evaluate((el, at) => (el as HTMLTextAreaElement).setSelectionRange(at, at), before.length);

  await ask.locator('[part~="chem-editor"]').click();
  const editor = ask.locator('csai-chem-editor');
  const dialog = editor.locator('[part~="dialog"]');
  await expect(dialog).toBeVisible();
  // Ketcher (and its Indigo WebAssembly) loads on first open: give it time on a busy machine.
  await expect(editor.locator('[part~="status"]')).toHaveCount(0, { timeout: 150_000 });
  await expect(editor.locator('[part~="load-error"]')).toHaveCount(0);
  await editor.locator('[part~="paste"]').fill(ASPIRIN);
  await editor.locator('[part~="paste-apply"]').click();
  // The structure is in Ketcher's canvas (its oxygen labels drawn in the frame).
  const frame = editor.frameLocator('[part~="frame"]');
  await expect(frame.locator('svg text').filter({ hasText: 'O' }).first()).toBeVisible({ timeout: 60_000 });
  await editor.locator('[part~="insert"]').click();
  await expect(dialog).not.toBeVisible();

  // Ketcher writes the structure its own way (often Kekulé); it sits exactly at the caret.
  const value = await input.inputValue();
  expect(value.startsWith(before) && value.endsWith(after), value).toBe(true);
  const smiles = value.slice(before.length, value.length - after.length);
  expect(smiles).toMatch(/^[A-Za-z0-9()=#@+\-[\]\\/]{10,}$/);
  await expect(input).toBeFocused();

  await input.press('Enter');
  await expect(page).toHaveURL(/\/channels\?channel_id=[\w-]+&closeSider=true$/);
  const channels = page.locator('csai-channels');
  const question = channels.locator('[part~="question"]').first();
  await expect(channels.locator('[part~="question-text"]').first()).toHaveText(value);

  // Under the question: the inserted SMILES drawn as written.
  const asked = channels.locator('[part~="question-structures"] csai-molecule');
  await expect(asked).toHaveCount(1);
  await expect(asked).toHaveAttribute('smiles', smiles);
  await drewSvg(asked);

  // The answer: the no-model line, then the structure RDKit read (canonical SMILES, formula, atoms), drawn.
  await expect(question).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  const answer = channels.locator('[part~="answer"]').first();
  await expect(answer).toContainText('未配置大语言模型');
  await expect(answer).toContainText('问题中的结构');
  await expect(answer).toContainText('分子式 C9H8O4，重原子 13 个');
  const drawn = answer.locator('csai-molecule');
  await expect(drawn).toHaveCount(1);
  await expect(drawn).toHaveAttribute('smiles', ASPIRIN);
  await drewSvg(drawn);
  await expectAccessible(page, 'csai-channels');
  expect(problems).toEqual([]);
});
