import { Router } from 'express';
import type { AppServices } from '../../schema/services.ts';

/** The agent surface: JSON-RPC 2.0 (MCP) at POST /api/mcp and its HTTP helpers under /api/mcp/*. */
export function createAgentApi(_app: AppServices): Router {
  return Router();
}
