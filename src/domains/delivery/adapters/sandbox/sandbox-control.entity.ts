import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../../../platform/db/columns.ts';

export interface SandboxInstruction {
  action: 'reject' | 'fail';
  reason: string | null;
}

/**
 * How the sandbox distributor misbehaves, shared by every process: one row (`id` 'global') with the
 * offline switch and per-store instructions keyed `<releaseId>:<storeId>`. An instruction applies at
 * each step of that store's delivery until it is cleared.
 */
export const SandboxControl = defineEntity({
  name: 'SandboxControl',
  tableName: 'sandbox_controls',
  properties: {
    id: p.string().length(50).primary(),
    offline: p.boolean().default(false),
    offlineReason: p.text().nullable(),
    instructions: p.json<Record<string, SandboxInstruction>>(),
    updatedAt: columns.updatedAt(),
  },
});

export type SandboxControl = InferEntity<typeof SandboxControl>;
