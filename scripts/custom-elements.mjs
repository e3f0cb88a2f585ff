// Generates custom-elements.json from the documentation blocks of src/widgets/**/*.element.ts
// (@tagname @attr @fires @csspart @cssprop, read by @custom-elements-manifest/analyzer).
//   node scripts/custom-elements.mjs            write the manifest
//   node scripts/custom-elements.mjs --check    exit 1 when the committed manifest differs from the code
// An optional path argument names another manifest file (tests use it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, ts } from '@custom-elements-manifest/analyzer';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

function elementFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? elementFiles(path.join(dir, e.name)) : e.name.endsWith('.element.ts') ? [path.join(dir, e.name)] : []))
    .sort();
}

/** The manifest of every element, as the analyzer reads it, tidied for readers. */
export function buildManifest() {
  const modules = elementFiles(path.join(root, 'src/widgets')).map((file) => {
    const rel = path.relative(root, file).split(path.sep).join('/');
    return ts.createSourceFile(rel, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  });
  const manifest = create({ modules });
  for (const mod of manifest.modules) {
    // Elements are classes built by createCsaiElement (an r2wc shell over HTMLElement) and
    // registered through defineOnce, which the analyzer does not know: say so plainly.
    mod.declarations = (mod.declarations ?? []).filter((d) => d.customElement);
    for (const d of mod.declarations) {
      delete d.mixins;
      d.superclass = { name: 'HTMLElement', package: 'global:' };
      for (const a of d.attributes ?? []) a.fieldName = camel(a.name);
      d.members = (d.attributes ?? []).map((a) => ({
        kind: 'field',
        name: a.fieldName,
        type: a.type,
        description: `Reflects the \`${a.name}\` attribute.`,
        attribute: a.name,
        reflects: true,
      }));
    }
    mod.exports = mod.declarations.flatMap((d) => [
      { kind: 'js', name: d.name, declaration: { name: d.name, module: mod.path } },
      { kind: 'custom-element-definition', name: d.tagName, declaration: { name: d.name, module: mod.path } },
    ]);
  }
  manifest.modules = manifest.modules.filter((m) => m.declarations.length > 0);
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const target = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'custom-elements.json'));
  const text = `${JSON.stringify(buildManifest(), null, 2)}\n`;
  if (args.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(root, target)} is out of date with the element documentation blocks: run \`npm run manifest\` and commit it.`);
      process.exit(1);
    }
    console.log(`${path.relative(root, target)} is up to date.`);
  } else {
    fs.writeFileSync(target, text);
    console.log(`wrote ${path.relative(root, target)}`);
  }
}
