export declare const preactAliases: Record<string, string>;
export declare const preactAliasEntries: { find: RegExp; replacement: string }[];
