/**
 * Prints the folder-level import graph of a source tree (default src/server) and every cycle in it,
 * then every file-level cycle (type-only imports count: two files that name each other's types are
 * one module in two files); exits 1 when there is a cycle of either kind. A folder is the first path
 * segment under the tree; files directly in the tree form the folder "(root)". An import that leaves
 * the tree is listed by the folder it reaches (e.g. src/contract) and cannot close a cycle.
 *   npx tsx scripts/import-graph.ts [dir]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export const ROOT_FOLDER = '(root)';

export interface FolderGraph {
  /** from folder → to folder → number of import lines. */
  edges: Map<string, Map<string, number>>;
}

/** from file → the files of the tree it imports (paths relative to the tree, `/`-separated). */
export type FileGraph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every module specifier of a file: import, import type, export ... from, import(), require(). */
function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The file a relative specifier names: `x.ts`, `x.d.ts`, `x/index.ts`, or `x` itself (e.g. JSON). */
function resolveModule(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  const candidates = [`${base}.ts`, `${base}.tsx`, `${base}.d.ts`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path)) ?? base;
}

function folderOf(tree: string, path: string): string {
  const rel = relative(tree, path);
  if (rel.startsWith('..')) return relative(process.cwd(), dirname(path)).split(sep).join('/');
  const parts = rel.split(sep);
  return parts.length === 1 ? ROOT_FOLDER : parts[0];
}

export function folderGraph(dir: string): FolderGraph {
  const tree = resolve(dir);
  const edges = new Map<string, Map<string, number>>();
  for (const file of sourceFiles(tree)) {
    const from = folderOf(tree, file);
    for (const spec of specifiers(file)) {
      if (!spec.startsWith('.')) continue;
      const to = folderOf(tree, resolveModule(file, spec));
      if (to === from) continue;
      const row = edges.get(from) ?? new Map<string, number>();
      row.set(to, (row.get(to) ?? 0) + 1);
      edges.set(from, row);
    }
  }
  return { edges };
}

/** Every file of the tree and the files of the tree it imports; imports that leave the tree are left out. */
export function fileGraph(dir: string): FileGraph {
  const tree = resolve(dir);
  const name = (path: string): string => relative(tree, path).split(sep).join('/');
  const graph: FileGraph = new Map();
  for (const file of sourceFiles(tree)) {
    const targets = new Set<string>();
    for (const spec of specifiers(file)) {
      if (!spec.startsWith('.')) continue;
      const target = resolveModule(file, spec);
      if (!relative(tree, target).startsWith('..') && existsSync(target)) targets.add(name(target));
    }
    graph.set(name(file), targets);
  }
  return graph;
}

/**
 * One cycle per group of files that import each other (a strongly connected component, Tarjan's
 * algorithm), as the shortest cycle through the group's alphabetically first file: every elementary
 * cycle of a few hundred files could be too many to list.
 */
export function findFileCycles(graph: FileGraph): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do group.push((member = stack.pop()!));
    while (member !== file);
    if (group.length > 1 || graph.get(file)?.has(file)) groups.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!order.has(file)) visit(file);
  return groups.map((group) => shortestCycle(graph, group[0], new Set(group))).sort();
}

function shortestCycle(graph: FileGraph, start: string, within: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of [...(graph.get(queue[i]) ?? [])].sort()) {
      if (!within.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, queue[i]);
      if (next === start) break;
      queue.push(next);
    }
    if (cameFrom.has(start)) break;
  }
  const cycle: string[] = [];
  for (let at = cameFrom.get(start)!; at !== start; at = cameFrom.get(at)!) cycle.unshift(at);
  return [start, ...cycle];
}

/** Every elementary cycle, each starting at its alphabetically first folder. */
export function findCycles(graph: FolderGraph): string[][] {
  const nodes = [...graph.edges.keys()].sort();
  const cycles: string[][] = [];
  for (const start of nodes) {
    const path = [start];
    const walk = (node: string): void => {
      for (const next of [...(graph.edges.get(node)?.keys() ?? [])].sort()) {
        if (next === start) cycles.push([...path]);
        else if (next > start && !path.includes(next)) {
          path.push(next);
          walk(next);
          path.pop();
        }
      }
    };
    walk(start);
  }
  return cycles;
}

export function describeFileCycles(cycles: string[][]): string {
  if (cycles.length === 0) return 'No file-level cycles.';
  return [
    `${cycles.length} file-level cycle(s):`,
    ...cycles.map((cycle) => `  file cycle: ${[...cycle, cycle[0]].join(' -> ')}`),
  ].join('\n');
}

export function describe(graph: FolderGraph, cycles: string[][]): string {
  const lines = ['Folder-level imports (from -> to: import lines):'];
  for (const from of [...graph.edges.keys()].sort()) {
    for (const [to, count] of [...graph.edges.get(from)!].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${from} -> ${to}: ${count}`);
    }
  }
  if (cycles.length === 0) lines.push('No cycles.');
  else {
    lines.push(`${cycles.length} cycle(s):`);
    for (const cycle of cycles) lines.push(`  cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2] ?? 'src/server';
  const graph = folderGraph(dir);
  const cycles = findCycles(graph);
  const fileCycles = findFileCycles(fileGraph(dir));
  console.log(describe(graph, cycles));
  console.log(describeFileCycles(fileCycles));
  process.exitCode = cycles.length > 0 || fileCycles.length > 0 ? 1 : 0;
}
