export declare function isolatedTestFiles(): Array<{ file: string; reason: string }>;
