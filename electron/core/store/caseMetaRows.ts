/** Every key case:create writes into case_meta; verify holds the table to exactly these. */
export const CASE_META_KEYS = ['case_id', 'name', 'description', 'created_at', 'home_scope'] as const;
