export declare const MUTATION_PARTS: Readonly<Record<string, readonly string[]>>;
export declare const NOT_MUTATED: readonly string[];
