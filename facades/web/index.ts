import { Router } from 'express';
import type { AppServices } from '../../schema/services.ts';

/** Public web documents: /.well-known/* discovery documents and pages. */
export function createWebRoutes(_app: AppServices): Router {
  return Router();
}
