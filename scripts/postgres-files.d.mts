export declare function postgresTestFiles(): { included: string[]; excluded: Array<{ file: string; reason: string }> };
export declare function resolveImport(from: string, spec: string): string | undefined;
export declare function importsOf(file: string): string[];
export declare function testFiles(dir: string): string[];
export declare function reachesAny(hit: (file: string) => boolean): (file: string) => boolean;
export declare const STATEMENTS_FILE: string;
export declare function postgresSelection(): Map<string, string>;
export declare function coveringFiles(
  included: string[],
  record: Record<string, { sha: string; statements: string[] }>,
  seconds: (file: string) => number,
  hashOf?: (file: string) => string,
): Map<string, string>;
