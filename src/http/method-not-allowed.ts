/**
 * Tells a wrong method on a known path (405) from an unknown path (404): every route's URL
 * pattern is recorded as it is registered, in a tree of its segments (a literal, or a parameter
 * that takes any non-empty segment), and the path that found no route is walked down it: a
 * refusal must cost less than a success, and a path costs its own segments, not every route.
 */
import type { FastifyInstance } from 'fastify';

/** One segment's place in the tree: the literal segments and the parameter that may follow it. */
interface PathNode {
  readonly literals: Map<string, PathNode>;
  param: PathNode | null;
  /** A pattern ends here. */
  end: boolean;
}

const newNode = (): PathNode => ({ literals: new Map(), param: null, end: false });

/** The segments after the leading `/`. */
const segmentsOf = (path: string): string[] => path.split('/').slice(1);

export class RouteIndex {
  private readonly root = newNode();

  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      if (route.method === 'HEAD' || (Array.isArray(route.method) && route.method.every((m) => m === 'HEAD'))) return;
      this.add(route.url);
    });
  }

  hasPath(path: string): boolean {
    const segments = segmentsOf(path);
    if (this.matches(this.root, segments, 0)) return true;
    // A pattern also matches its path with one trailing slash more.
    return segments.length > 0 && segments[segments.length - 1] === '' && this.matches(this.root, segments, 1);
  }

  private add(url: string): void {
    let node = this.root;
    for (const segment of segmentsOf(url)) {
      if (segment.startsWith(':')) {
        node = node.param ??= newNode();
      } else {
        let next = node.literals.get(segment);
        if (!next) node.literals.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.end = true;
  }

  /** Whether the segments from `node` on (but the last `dropped`) reach the end of a pattern. */
  private matches(node: PathNode, segments: readonly string[], dropped: number, index = 0): boolean {
    if (index === segments.length - dropped) return node.end;
    const segment = segments[index]!;
    const literal = node.literals.get(segment);
    if (literal && this.matches(literal, segments, dropped, index + 1)) return true;
    return segment !== '' && node.param !== null && this.matches(node.param, segments, dropped, index + 1);
  }
}
