/** A busy port stops the playground with a message that names --port (not an unhandled EADDRINUSE). */
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPlayground } from '../../dev/playground/app';
import type { PlaygroundStack } from '../../dev/playground/types';

describe('playground start on a busy port', () => {
  it('rejects with the port and the --port option to use instead', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const stack = { runtime: { triggers: [] } } as unknown as PlaygroundStack;
    try {
      await expect(startPlayground({ stack, distDir: path.resolve(__dirname, '../../dist'), port })).rejects.toThrow(
        `Port ${port} on 127.0.0.1 is busy (another playground, or another program). Start on a free port: npm start -- --port ${port + 1}`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
