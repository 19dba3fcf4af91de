// Child process of bench/data: a hello-world GET on the same HTTP layer the data service mounts its
// routes on (@pmx/http), the peer its reads are compared with; and GET
// /sized/:bytes, a prepared JSON body of that many bytes (a read's size at no cost to make): what
// moving the bytes alone allows. Reports its port over IPC; exits when the parent disconnects.
import { createHttpServer, HttpError, type Route } from '@pmx/http';

const HELLO = JSON.stringify({ hello: 'world' });
const sized = new Map<number, string>();
const server = createHttpServer({
  routes: [
    { method: 'GET', path: '/hello', handler: () => ({ body: HELLO }) },
    {
      method: 'GET',
      path: '/sized/:bytes',
      handler: (ctx) => {
        const bytes = Number(ctx.params.bytes);
        if (!Number.isSafeInteger(bytes) || bytes < 2 || bytes > 10_000_000) throw new HttpError(400, 'bytes');
        let body = sized.get(bytes);
        if (body === undefined) sized.set(bytes, (body = JSON.stringify('x'.repeat(bytes - 2))));
        return { body };
      },
    },
  ] satisfies Route[],
  errorShape: 'simple',
});
const listening = server.listen(0, '127.0.0.1');
process.send!({ port: listening.port });
process.on('disconnect', () => process.exit(0));
