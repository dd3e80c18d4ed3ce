/**
 * Tells a wrong method on a known path (405) from an unknown path (404): every route's URL
 * pattern is recorded as it is registered and tried against the path that found no route.
 */
import type { FastifyInstance } from 'fastify';

export class RouteIndex {
  private readonly patterns: RegExp[] = [];

  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      if (route.method === 'HEAD' || (Array.isArray(route.method) && route.method.every((m) => m === 'HEAD'))) return;
      this.patterns.push(RouteIndex.toPattern(route.url));
    });
  }

  hasPath(path: string): boolean {
    return this.patterns.some((pattern) => pattern.test(path));
  }

  private static toPattern(url: string): RegExp {
    const body = url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${body}/?$`);
  }
}
