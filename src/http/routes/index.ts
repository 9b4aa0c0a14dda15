import type { RouteModule } from '../app.types';
import { ffpRoute } from './ffp.route';
import { healthRoute } from './health.route';

/** The routes of the front door so far, in registration order. Add new modules here. */
export const coreRoutes: readonly RouteModule[] = [healthRoute, ffpRoute];
