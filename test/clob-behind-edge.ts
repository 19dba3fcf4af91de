// A clob (in-process harness) with the edge in front of its Unix socket, as clients reach it:
// the cross-service tests of what clients send (the official client, auth, hostile input).
import { join } from 'node:path';
import { startClob, type Harness } from '@pmx/clob/testing';
import { startEdge, type EdgeHarness } from '@pmx/edge/testing';
import { createTempDir } from '@pmx/testkit';

export interface ClobBehindEdge {
  h: Harness;
  edge: EdgeHarness;
  /** Where clients reach the clob: through the edge. */
  url: string;
  close(): Promise<void>;
}

/** `edgeEnv`: the edge's own settings (caps, timeouts). */
export async function startClobBehindEdge(edgeEnv: Record<string, string> = {}): Promise<ClobBehindEdge> {
  const dir = await createTempDir('pmx-edge-clob-');
  const socket = join(dir.path, 'clob.sock');
  let h: Harness | undefined;
  try {
    h = await startClob({ PMX_CLOB_SOCKET: socket });
    const edge = await startEdge({ PMX_CLOB_SOCKET: socket, ...edgeEnv });
    const harness = h;
    return {
      h: harness,
      edge,
      url: edge.clobUrl,
      async close() {
        try {
          await edge.close();
          await harness.close();
        } finally {
          await dir.remove();
        }
      },
    };
  } catch (error) {
    await h?.close();
    await dir.remove();
    throw error;
  }
}
