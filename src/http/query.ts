/** Query-string booleans as v10 reads them: `true`/`True`/`1` and `false`/`False`/`0`. */
export function queryFlag(value: unknown): boolean {
  return value === 'true' || value === 'True' || value === '1';
}

/** A query boolean that must be well formed: true, false, absent (`fallback`), or null when it is neither. */
export function strictQueryFlag(value: unknown, fallback: boolean): boolean | null {
  if (value === undefined) return fallback;
  if (value === 'true' || value === 'True' || value === '1') return true;
  if (value === 'false' || value === 'False' || value === '0') return false;
  return null;
}
