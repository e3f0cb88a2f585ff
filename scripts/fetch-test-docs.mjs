#!/usr/bin/env node
// Fetches real documents that nobody on this project wrote, for the parsing tests, into
// .tmp/test-docs (never committed). Idempotent: files already there are kept. Sources are Debian
// packages: taken from the installed system when present, else `apt-get download` + `dpkg-deb -x`
// (running `apt-get update` once when the package lists are missing).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEST_DOCS = path.join(root, '.tmp', 'test-docs');
const debDir = path.join(root, '.tmp', 'debs');

/** package → { name in .tmp/test-docs: path inside the package } */
const wanted = {
  'texlive-lang-chinese': {
    'zhlipsum.pdf': '/usr/share/doc/texlive-doc/latex/zhlipsum/zhlipsum.pdf',
    'zhnumber.pdf': '/usr/share/doc/texlive-doc/latex/zhnumber/zhnumber.pdf',
    'fduthesis-en.pdf': '/usr/share/doc/texlive-doc/latex/fduthesis/fduthesis-en.pdf',
    // 139 pages: the retrieval measurement and parse benchmarks use it.
    'lshort-zh-cn.pdf': '/usr/share/doc/texlive-doc/latex/lshort-chinese/lshort-zh-cn.pdf',
    // Navigation pages (table of contents, running heads) and FAQ structure: the retrieval tests and set.
    'ctex-faq.pdf': '/usr/share/doc/texlive-doc/latex/ctex-faq/ctex-faq.pdf',
    'tlmgr-intro-zh-cn.pdf': '/usr/share/doc/texlive-doc/support/tlmgr-intro-zh-cn/tlmgr-intro-zh-cn.pdf',
    'install-latex-guide-zh-cn.pdf': '/usr/share/doc/texlive-doc/latex/install-latex-guide-zh-cn/install-latex-guide-zh-cn.pdf',
    'zhlipsum-en.pdf': '/usr/share/doc/texlive-doc/latex/zhlipsum/zhlipsum-en.pdf',
  },
  'rdkit-data': {
    'cdk2.sdf': '/usr/share/RDKit/Contrib/Fastcluster/testdata/cdk2.sdf',
    'first_200.props.sdf': '/usr/share/RDKit/Data/NCI/first_200.props.sdf',
    '5dpv.pdb': '/usr/share/RDKit/Contrib/CalcLigRMSD/data/5dpv.pdb',
  },
};

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });

function download(pkg) {
  fs.mkdirSync(debDir, { recursive: true });
  const existing = fs.readdirSync(debDir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  if (existing) return path.join(debDir, existing);
  try {
    run('apt-get', ['download', pkg], { cwd: debDir });
  } catch {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['download', pkg], { cwd: debDir });
  }
  const deb = fs.readdirSync(debDir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  if (!deb) throw new Error(`apt-get download ${pkg} produced no .deb`);
  return path.join(debDir, deb);
}

/**
 * Test files run in parallel and may all call this at once on a fresh machine: one process
 * fetches under a lock directory while the others wait for it (a lock older than 10 minutes is
 * taken as left by a killed run).
 */
const lockDir = path.join(root, '.tmp', 'test-docs.lock');
function acquireLock() {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      try {
        if (Date.now() - fs.statSync(lockDir).mtimeMs > 10 * 60_000) fs.rmSync(lockDir, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      if (Date.now() > deadline) throw new Error('timed out waiting for another fetch of the test documents');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}
const releaseLock = () => fs.rmSync(lockDir, { recursive: true, force: true });

/** Fetches every test document (and the OCR test image); resolves to the folder holding them. */
export async function fetchTestDocs() {
  acquireLock();
  try {
    fetchUnlocked();
    await renderPageImageAsync();
    return TEST_DOCS;
  } finally {
    releaseLock();
  }
}

function fetchUnlocked() {
  fs.mkdirSync(TEST_DOCS, { recursive: true });
  for (const [pkg, files] of Object.entries(wanted)) {
    const missing = Object.entries(files).filter(([name]) => !fs.existsSync(path.join(TEST_DOCS, name)));
    if (!missing.length) continue;
    let source = (p) => p; // installed on this machine?
    if (missing.some(([, p]) => !fs.existsSync(p))) {
      const deb = download(pkg);
      const tree = path.join(debDir, `${pkg}-tree`);
      if (!fs.existsSync(tree)) {
        fs.mkdirSync(`${tree}.part`, { recursive: true });
        run('dpkg-deb', ['-x', deb, `${tree}.part`]);
        fs.renameSync(`${tree}.part`, tree);
      }
      source = (p) => path.join(tree, p);
    }
    for (const [name, p] of missing) {
      const tmp = path.join(TEST_DOCS, `${name}.part`);
      fs.copyFileSync(source(p), tmp);
      fs.renameSync(tmp, path.join(TEST_DOCS, name));
    }
  }
  installTesseract();
  return TEST_DOCS;
}

/**
 * An image with real Chinese print for the OCR test: page 2 of zhlipsum.pdf rendered to PNG with
 * pdf.js and @napi-rs/canvas (pdf.js's optional renderer in Node). Skipped when canvas is absent.
 */
async function renderPageImageAsync() {
  const target = path.join(TEST_DOCS, 'zhlipsum-page2.png');
  if (fs.existsSync(target)) return;
  let createCanvas;
  try {
    ({ createCanvas } = await import('@napi-rs/canvas'));
  } catch {
    return;
  }
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjs = path.join(root, 'node_modules', 'pdfjs-dist');
  const doc = await getDocument({
    data: new Uint8Array(fs.readFileSync(path.join(TEST_DOCS, 'zhlipsum.pdf'))),
    isEvalSupported: false,
    verbosity: 0,
    cMapUrl: path.join(pdfjs, 'cmaps') + path.sep,
    cMapPacked: true,
    standardFontDataUrl: path.join(pdfjs, 'standard_fonts') + path.sep,
  }).promise;
  const page = await doc.getPage(2);
  const viewport = page.getViewport({ scale: 1.5 });
  const canvas = createCanvas(viewport.width, viewport.height / 2);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, viewport.width, viewport.height);
  await page.render({ canvasContext: ctx, viewport, canvas }).promise;
  fs.writeFileSync(`${target}.part`, canvas.toBuffer('image/png'));
  fs.renameSync(`${target}.part`, target);
  await doc.destroy();
}

/** OCR data from Debian (allowed in tests): installed when missing and we may (root). */
function installTesseract() {
  try {
    run('tesseract', ['--version']);
    return;
  } catch {
    // not installed
  }
  if (process.getuid?.() !== 0) return;
  try {
    run('apt-get', ['install', '-y', '-qq', 'tesseract-ocr', 'tesseract-ocr-chi-sim', 'tesseract-ocr-eng'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch {
    try {
      run('apt-get', ['update', '-qq']);
      run('apt-get', ['install', '-y', '-qq', 'tesseract-ocr', 'tesseract-ocr-chi-sim', 'tesseract-ocr-eng'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } catch {
      // the OCR test then checks the "OCR unavailable" path
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(await fetchTestDocs());
  } catch (err) {
    console.error(`Could not fetch the test documents: ${err.message}\nThey come from Debian packages (apt-get download texlive-lang-chinese rdkit-data).`);
    process.exit(1);
  }
}
