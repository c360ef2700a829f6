export declare const MUTATION_PARTS: Readonly<Record<'domain' | 'audit' | 'services' | 'worker' | 'host' | 'store', readonly string[]>>;
export declare const NOT_MUTATED: readonly string[];
