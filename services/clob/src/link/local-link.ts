// The core and a gateway in one process (the simple start, and the tests' harness): commands are
// calls, publications reach the gateway's view synchronously, before the command's reply.

import type { CoreService } from '../core/core-service.ts';
import type { CoreView } from '../gateway/core-view.ts';
import type { CoreCommand, CoreLink, CoreReply } from './core-protocol.ts';

export class LocalLink implements CoreLink {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly service: CoreService,
    view: CoreView,
  ) {
    view.applySnapshot(service.snapshot());
    this.unsubscribe = service.subscribe((publication) => view.apply(publication));
  }

  execute(command: CoreCommand): Promise<CoreReply> {
    return this.service.execute(command);
  }

  close(): void {
    this.unsubscribe();
  }
}
