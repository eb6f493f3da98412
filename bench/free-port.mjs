// A port on 127.0.0.1 that nothing listens on right now (the OS picks it): plain JavaScript, so the
// production benchmark server (server-groundwork.mjs, under plain node) and the tests share it.
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
