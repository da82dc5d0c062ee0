import vm from 'node:vm';
import { workerData } from 'node:worker_threads';
import type { WireError, WorkerStart } from '../bridge/protocol.js';
import { createGasContext } from './context.js';
import { HostChannel } from './host-channel.js';
import { libraryNamespace } from './library-namespace.js';
import { WorkerUsage } from './usage.js';

/** One execution: load the libraries and Code.js into fresh contexts, call the named global. */

const usage = new WorkerUsage();
const start = workerData as WorkerStart;
const channel = new HostChannel(start.port, start.signal, usage);

function toWireError(error: unknown): WireError {
  if (error !== null && typeof error === 'object' && 'message' in error) {
    const e = error as { name?: unknown; message?: unknown };
    return { name: typeof e.name === 'string' ? e.name : 'Error', message: String(e.message) };
  }
  return { name: 'Error', message: String(error) };
}

async function execute(): Promise<void> {
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

execute().catch((error: unknown) => {
  channel.finish({ type: 'done', ok: false, error: toWireError(error) });
});
