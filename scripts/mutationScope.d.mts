export declare const MUTATION_PARTS: Readonly<Record<string, readonly string[]>>;
export declare const PART_TESTS: Readonly<Record<string, readonly string[] | undefined>>;
export declare const NOT_MUTATED: readonly string[];
