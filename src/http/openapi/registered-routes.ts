import type { Express, Router } from 'express';
import { routeKey } from './contract';

interface RouteListing {
  path: string | RegExp;
  methods?: string[];
  router?: Router;
}

/**
 * Every `METHOD path` the built app answers, read from its router (router >= 2.3 `listRoutes`,
 * as the 405 machinery does). Routes taking every method (`router.all`, the 405 recorders) and the
 * HEAD express adds beside each GET are left out: they are not operations of their own.
 */
export function registeredRoutes(app: Express): string[] {
  const keys = new Set<string>();
  const walk = (router: Router, prefix: string) => {
    const list = (router as unknown as { listRoutes: () => RouteListing[] }).listRoutes();
    for (const route of list) {
      const path = `${prefix}${String(route.path)}`;
      if (route.router) walk(route.router, path);
      if (!route.methods || route.methods.includes('*')) continue;
      for (const method of route.methods) {
        if (method === 'HEAD' && route.methods.includes('GET')) continue;
        keys.add(routeKey(method, path));
      }
    }
  };
  walk(app.router as unknown as Router, '');
  return [...keys].sort();
}
