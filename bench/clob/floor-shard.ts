// The floor's shard (floor-server.ts): a one-thread Piscina pool's task that does no work, so a
// batch pays only the hand-off to the shard thread and back.
export default function shard(batch: { signers: string[] }): number {
  return batch.signers.length;
}
