/**
 * How the stand-in hands a MERGE's ON to DuckDB, not what it means. A MERGE with a `WHEN NOT
 * MATCHED BY SOURCE` clause is a full outer join in DuckDB, and DuckDB runs a full outer join whose
 * ON holds a condition on the target alone (the add-on's `T.placed_day IN UNNEST(@days)`) beside
 * its keys far slower than one on keys alone (a blockwise nested-loop join, not a hash join:
 * 3.3 s for 100,000 target rows and 20,000 source rows, growing with their product). So `T.k = S.k AND T.day IN UNNEST(@days)` goes to DuckDB as
 * `CASE WHEN T.day IN UNNEST(@days) THEN T.k END = S.k`: an ON matches a pair only when it is
 * TRUE, and both forms are TRUE for the same pairs (the CASE is NULL where the condition is not
 * TRUE), so the rows matched, and everything the statement does, stay the same. Any ON not made
 * of such plain conjuncts (an OR, a BETWEEN, a CASE, a table without an alias) goes as written.
 */
import { splitAlias, topLevel, upper, type Token } from './sql-tokens.js';

const SPACE: Token = { kind: 'space', text: ' ' };
const word = (text: string): Token => ({ kind: 'ident', text });

const significant = (tokens: Token[]): Token[] => tokens.filter((t) => t.kind !== 'space');
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The ON's top-level conjuncts, or null when its AND words may not all join conjuncts. */
function conjuncts(on: Token[]): Token[][] | null {
  const out: Token[][] = [[]];
  let depth = 0;
  for (const t of on) {
    if (t.kind === 'punct' && t.text === '(') depth++;
    if (t.kind === 'punct' && t.text === ')') depth--;
    if (depth === 0 && ['OR', 'BETWEEN', 'CASE'].includes(upper(t))) return null;
    if (depth === 0 && upper(t) === 'AND') out.push([]);
    else out[out.length - 1].push(t);
  }
  return out;
}

/** `alias.column IN UNNEST(@param)` on the target. */
function isTargetInArray(c: Token[], target: string): boolean {
  const s = significant(c);
  return (
    s.length === 8 &&
    s[0].kind === 'ident' &&
    same(s[0].text, target) &&
    s[1].text === '.' &&
    s[2].kind === 'ident' &&
    upper(s[3]) === 'IN' &&
    upper(s[4]) === 'UNNEST' &&
    s[5].text === '(' &&
    s[6].kind === 'param' &&
    s[7].text === ')'
  );
}

/** `T.a = S.b` (or `S.b = T.a`): its target side and its source side, or null. */
function keyEquality(c: Token[], target: string, source: string): { target: Token[]; source: Token[] } | null {
  const s = significant(c);
  const column = (i: number) => s[i]?.kind === 'ident' && s[i + 1]?.text === '.' && s[i + 2]?.kind === 'ident';
  if (s.length !== 7 || !column(0) || s[3].text !== '=' || !column(4)) return null;
  const [left, right] = [s.slice(0, 3), s.slice(4)];
  if (same(left[0].text, target) && same(right[0].text, source)) return { target: left, source: right };
  if (same(left[0].text, source) && same(right[0].text, target)) return { target: right, source: left };
  return null;
}

/** The MERGE's tokens with its target-only array conditions folded into a key's CASE (or as they were). */
export function keyedMergeOn(tokens: Token[]): Token[] {
  const sig = tokens.map((t, i) => (t.kind === 'space' ? -1 : i)).filter((i) => i >= 0);
  const k = upper(tokens[sig[1]]) === 'INTO' ? 2 : 1;
  if (tokens[sig[k]]?.kind !== 'backtick') return tokens;
  const using = topLevel(tokens, sig[k] + 1, 'USING');
  const on = using < 0 ? -1 : topLevel(tokens, using + 1, 'ON');
  const when = on < 0 ? -1 : topLevel(tokens, on + 1, 'WHEN');
  if (when < 0) return tokens;
  const target = splitAlias(tokens.slice(sig[k], using)).alias;
  const source = splitAlias(tokens.slice(using + 1, on)).alias;
  const parts = conjuncts(tokens.slice(on + 1, when));
  if (target === null || source === null || parts === null) return tokens;
  const conditions = parts.filter((c) => isTargetInArray(c, target));
  const key = parts.findIndex((c) => keyEquality(c, target, source) !== null);
  if (conditions.length === 0 || key < 0) return tokens;
  const equality = keyEquality(parts[key], target, source)!;
  const when_ = conditions.flatMap((c, i) => [...(i > 0 ? [SPACE, word('AND'), SPACE] : []), ...c]);
  const keyed = [word('CASE'), SPACE, word('WHEN'), SPACE, ...when_, SPACE, word('THEN'), SPACE];
  const folded = [...keyed, ...equality.target, SPACE, word('END'), SPACE, { kind: 'punct', text: '=' } as Token];
  const rest = parts.map((c, i) => (i === key ? [...folded, SPACE, ...equality.source] : c));
  const kept = rest.filter((_, i) => i === key || !conditions.includes(parts[i]));
  const onTokens = kept.flatMap((c, i) => [...(i > 0 ? [SPACE, word('AND')] : []), SPACE, ...c]);
  return [...tokens.slice(0, on + 1), ...onTokens, SPACE, ...tokens.slice(when)];
}
