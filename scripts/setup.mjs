#!/usr/bin/env node
// `npm run setup` (also run by `npm start`, `npm test` and .ci/run): the Debian packages the tools need,
// installed when missing and running as root; otherwise the exact install line is printed and the
// product starts with those tools disabled, each saying what is missing. Idempotent: one dpkg-query
// when everything is there. `--test` adds what the test suites need (Chromium, a CJK font).
// CSAI_SKIP_SETUP=1 skips it (a machine managed otherwise).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Package → what needs it (shown when it is missing and cannot be installed). */
const TOOLS = {
  'tesseract-ocr': 'OCR of images and scanned pages',
  'tesseract-ocr-chi-sim': 'OCR of Chinese',
  'tesseract-ocr-eng': 'OCR of English',
  'default-jre-headless': 'OPSIN (chemical name → SMILES)',
  'libopsin-java': 'OPSIN (chemical name → SMILES)',
  'rdkit-data': 'PAINS and SA-score reference data, test molecules',
  'python3-rdkit': 'code execution (RDKit in the sandbox) and reference checks',
  'python3-numpy': 'code execution',
  'python3-pandas': 'code execution',
  'python3-matplotlib': 'code execution (plots)',
  'fonts-wqy-microhei': 'Chinese labels in code-execution plots (matplotlib in the sandbox), Chinese text in browser screenshots',
  'bubblewrap': 'the code-execution sandbox',
  'autodock-vina': 'docking',
  'openbabel': 'docking (ligand and receptor preparation)',
  plip: 'docking (protein–ligand interactions of each pose)',
  'python3-pdbfixer': 'docking (receptor preparation: missing atoms and residues)',
  osra: 'chemical structures read from drawings in PDFs and images',
};
const TEST = {
  chromium: 'browser and end-to-end tests',
  slapd: 'directory sign-in tests (a real LDAP server)',
  'ldap-utils': 'directory sign-in tests (loading the test directory)',
  'postgresql-15': 'the server tests on PostgreSQL (DATABASE_URL; started by the tests as the postgres user)',
  'poppler-utils': 'the chemdocs bench (pages rendered for its scanned documents and for the plain OSRA baseline)',
  'python3-pil': 'the chemdocs bench (scanned pages of its evaluation set)',
};

if (process.env.CSAI_SKIP_SETUP === '1') process.exit(0);
const wanted = { ...TOOLS, ...(process.argv.includes('--test') ? TEST : {}) };
const names = Object.keys(wanted);

/** The wanted packages dpkg does not list as installed (all of them where dpkg is missing). */
function missingPackages() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\n', ...names], { encoding: 'utf8' });
  if (r.error) return names;
  const installed = new Set(r.stdout.split('\n').filter((l) => l.endsWith(' installed')).map((l) => l.split(' ')[0]));
  return names.filter((n) => !installed.has(n));
}

const missing = missingPackages();
if (missing.length === 0) process.exit(0);

const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
if (canInstall) {
  console.log(`Installing from Debian: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
  } catch (err) {
    console.warn(`apt-get failed (${err.message.split('\n')[0]}); the tools below stay disabled.`);
  }
}
const still = canInstall ? missingPackages() : missing;
if (still.length) {
  console.warn('Missing Debian packages — the tools that need them are disabled and say so:');
  for (const name of still) console.warn(`  ${name}: ${wanted[name]}`);
  console.warn(`Install them with: sudo apt-get install -y ${still.join(' ')}`);
}
