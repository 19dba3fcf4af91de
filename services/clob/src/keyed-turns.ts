// Runs tasks that share a key one at a time, in the order they came; tasks of other keys run
// alongside. A task that fails does not stop the ones after it. Nothing is kept for a key once
// its last task has settled.

export class KeyedTurns {
  private readonly last = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const turn = (this.last.get(key) ?? Promise.resolve()).then(task);
    const settled = turn.catch(() => undefined);
    this.last.set(key, settled);
    void settled.then(() => {
      if (this.last.get(key) === settled) this.last.delete(key);
    });
    return turn;
  }

  /** Keys with a task waiting or running. */
  get size(): number {
    return this.last.size;
  }
}
