// A refresh that runs at start and then every intervalMs (never when 0), with at most one run in
// flight: a run asked for while one is going joins it.

export abstract class PeriodicRefresh {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly intervalMs: number) {}

  protected abstract work(): Promise<void>;

  start(): void {
    if (this.intervalMs <= 0) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.timer.unref();
  }

  refresh(): Promise<void> {
    return (this.running ??= this.work().finally(() => (this.running = undefined)));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
