// The hand-written header front (@pmx/http's startHeaderProxy) in a process of its own, in front
// of a Unix socket, so the edge bench can read its CPU time apart from the server's.
import { startHeaderProxy } from '@pmx/http';

const front = await startHeaderProxy({ port: 0, target: { path: process.argv[2]! } });
process.send!(front.port);
