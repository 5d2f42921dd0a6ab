import { toNumber } from './metrics';

export interface TreeNode {
  name: string;
  value: number;
  /** Values of the hierarchy columns down to this node. */
  path: unknown[];
  children?: TreeNode[];
  secondary?: number;
}

/**
 * Rows grouped by the hierarchy columns into a tree; each node's value is the sum of its leaves. A node's name is its
 * value as `nameOf` writes it (a date in the chart's date format); values that read the same share a node.
 */
export function buildTree(rows: Record<string, unknown>[], levels: string[], metric: string, secondaryMetric?: string, nameOf: (level: string, value: unknown) => string = (_, v) => (v === null || v === undefined ? 'NULL' : String(v))): TreeNode[] {
  const root: TreeNode = { name: '', value: 0, path: [], children: [] };
  for (const row of rows) {
    const value = toNumber(row[metric]) ?? 0;
    const secondary = secondaryMetric ? (toNumber(row[secondaryMetric]) ?? 0) : undefined;
    let node = root;
    node.value += value;
    levels.forEach((level, depth) => {
      const key = row[level];
      const name = nameOf(level, key);
      node.children ??= [];
      let child = node.children.find((c) => c.name === name);
      if (!child) {
        child = { name, value: 0, path: [...node.path, key], ...(depth < levels.length - 1 ? { children: [] } : {}), ...(secondaryMetric ? { secondary: 0 } : {}) };
        node.children.push(child);
      }
      child.value += value;
      if (secondary !== undefined) child.secondary = (child.secondary ?? 0) + secondary;
      node = child;
    });
  }
  return root.children ?? [];
}

/** Every node of a tree, depth first. */
export function* walkTree(nodes: TreeNode[]): Generator<TreeNode> {
  for (const n of nodes) {
    yield n;
    if (n.children) yield* walkTree(n.children);
  }
}
