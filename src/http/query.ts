/** Query-string booleans as v10 reads them: `true`/`True`/`1` and `false`/`False`/`0`. */
export function queryFlag(value: unknown): boolean {
  return value === 'true' || value === 'True' || value === '1';
}
