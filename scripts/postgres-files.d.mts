export declare function postgresTestFiles(): { included: string[]; excluded: Array<{ file: string; reason: string }> };
