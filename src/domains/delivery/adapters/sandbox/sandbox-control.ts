import type { EntityManager } from '@mikro-orm/postgresql';
import { SandboxControl, type SandboxInstruction } from './sandbox-control.entity.ts';

export const GLOBAL_CONTROL_ID = 'global';

export function instructionKey(releaseId: string, storeId: number): string {
  return `${releaseId}:${storeId}`;
}

export async function readControl(em: EntityManager): Promise<SandboxControl | null> {
  return em.findOne(SandboxControl, { id: GLOBAL_CONTROL_ID }, { refresh: true });
}

export function instructionFor(
  control: SandboxControl | null,
  releaseId: string,
  storeId: number,
): SandboxInstruction | null {
  return control?.instructions[instructionKey(releaseId, storeId)] ?? null;
}

const ENSURE_ROW =
  'insert into sandbox_controls (id, offline, offline_reason, instructions, updated_at) ' +
  "values (?, false, null, '{}'::jsonb, now()) on conflict (id) do nothing";

/** Takes the sandbox distributor offline (nothing moves, status reads fall back) or back online. */
export async function setSandboxOffline(em: EntityManager, offline: boolean, reason?: string): Promise<void> {
  // One transaction: its commit is what clears cached statuses (ReleaseStatusCache).
  await em.transactional(async (tem) => {
    await tem.execute(ENSURE_ROW, [GLOBAL_CONTROL_ID]);
    await tem.execute(
      'update sandbox_controls set offline = ?, offline_reason = ?, updated_at = now() where id = ?',
      [offline, offline ? (reason ?? 'The distributor is offline.') : null, GLOBAL_CONTROL_ID],
    );
  });
}

/**
 * Tells the sandbox what a store does with a release at its next steps: reject it (with a reason) or
 * fail the delivery; null clears the instruction. Edits one key atomically, so concurrent edits of
 * other keys survive.
 */
export async function instructSandbox(
  em: EntityManager,
  releaseId: string,
  storeId: number,
  instruction: SandboxInstruction | null,
): Promise<void> {
  const key = instructionKey(releaseId, storeId);
  await em.execute(ENSURE_ROW, [GLOBAL_CONTROL_ID]);
  if (instruction) {
    await em.execute(
      'update sandbox_controls set instructions = instructions || jsonb_build_object(?::text, ?::jsonb), ' +
        'updated_at = now() where id = ?',
      [key, JSON.stringify(instruction), GLOBAL_CONTROL_ID],
    );
  } else {
    await em.execute(
      'update sandbox_controls set instructions = instructions - ?::text, updated_at = now() where id = ?',
      [key, GLOBAL_CONTROL_ID],
    );
  }
}
