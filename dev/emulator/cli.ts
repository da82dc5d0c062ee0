import { startEmulator } from './index.js';
import { OptionError, parseCliArgs } from './options.js';

/** `npm run emulator -- --port 8787 --seed 1 --orders 2000 --plan plus --timezone America/New_York ...` */
async function main(): Promise<void> {
  let options;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof OptionError) {
      process.stderr.write(`emulator: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const emulator = await startEmulator(options);
  const store = emulator.state.store(emulator.state.defaultStoreId)!;
  process.stdout.write(
    [
      `Merchant Analytics emulator listening on ${emulator.url}`,
      `client_id: ${emulator.clientId}`,
      `client_secret: ${emulator.clientSecret}`,
      `store: ${store.store.id} (${store.store.name}, ${store.ordersById.length} orders, plan ${store.store.plan}, ${store.store.timezone})`,
      `redirect URIs: ${options.redirectUris.length ? options.redirectUris.join(' ') : '(none registered: pass --redirect-uri)'}`,
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
