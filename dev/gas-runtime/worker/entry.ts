import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { PooledWorkerData, WireError, WorkerStart } from '../bridge/protocol.js';
import { createGasContext } from './context.js';
import { garbageCollector } from './heap-reset.js';
import { HostChannel } from './host-channel.js';
import { libraryNamespace } from './library-namespace.js';
import { WorkerUsage } from './usage.js';

/**
 * A pooled worker thread: each start message is one execution. Apps Script starts every execution
 * from a fresh global scope (the "Execution" notes of developers.google.com/apps-script/guides/v8-runtime):
 * nothing carries over but what the services keep. So every execution gets its own contexts (fresh
 * globals and built-ins), its own libraries and Code.js evaluation, channel, usage figures and clock
 * install; nothing at module level here holds an execution's state.
 */

const collectGarbage = garbageCollector((workerData as PooledWorkerData).gcFlagLock);

function toWireError(error: unknown): WireError {
  if (error !== null && typeof error === 'object' && 'message' in error) {
    const e = error as { name?: unknown; message?: unknown };
    return { name: typeof e.name === 'string' ? e.name : 'Error', message: String(e.message) };
  }
  return { name: 'Error', message: String(error) };
}

async function execute(start: WorkerStart, channel: HostChannel): Promise<void> {
  const main = createGasContext(channel, start.clock, start.roots);
  for (const library of start.libraries) {
    const lib = createGasContext(channel, start.clock, start.roots);
    const globalsBefore = new Set(Object.getOwnPropertyNames(lib.context));
    vm.runInContext(library.source, lib.context, { filename: library.filename });
    main.context[library.userSymbol] = libraryNamespace(library, lib.context, globalsBefore);
  }
  vm.runInContext(start.code, main.context, { filename: start.codeFilename });
  const fn: unknown = main.context[start.functionName];
  if (typeof fn !== 'function')
    throw main.realm.newError({ name: 'Exception', message: `Script function not found: ${start.functionName}` });
  const args = start.args.map((a) => main.realm.importValue(a));
  let value: unknown = (fn as (...a: unknown[]) => unknown)(...args);
  if (value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function')
    value = await value;
  channel.finish({ type: 'done', ok: true, value: main.realm.exportValue(value) });
}

function run(start: WorkerStart): void {
  const channel = new HostChannel(start.port, start.signal, new WorkerUsage());
  void execute(start, channel)
    .catch((error: unknown) => {
      channel.finish({ type: 'done', ok: false, error: toWireError(error) });
    })
    // A macrotask runs once the script's leftover promise jobs are done: only then may the host reuse us.
    .finally(() =>
      setImmediate(() => {
        collectGarbage();
        parentPort?.postMessage('idle');
      }),
    );
}

parentPort?.on('message', (start: WorkerStart) => run(start));
