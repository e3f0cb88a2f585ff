// Some of Ketcher's dependencies read Node's `global`; in the browser it is `globalThis`. Imported
// first by ketcher-frame.tsx so it runs before them.
const scope: typeof globalThis & { global?: typeof globalThis } = globalThis;
scope.global ??= globalThis;
export {};
