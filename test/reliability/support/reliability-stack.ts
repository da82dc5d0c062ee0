/**
 * A stack for reliability scenarios: the harness's emulator + runtime, with everything the add-on
 * showed anyone recorded (execution results with their logs and errors, callback pages, the
 * sidebar's pages), so that a scenario can end with a token scan of all of it.
 */
import type { ExecutionResult } from '../../../dev/gas-runtime/index';
import {
  startStack,
  type ConnectOptions,
  type ConnectResult,
  type Stack,
  type StackOptions,
} from '../../../dev/harness/index';

export interface ReliabilityStack extends Stack {
  /** Everything shown or returned: results (values, errors, logs, request URLs) and pages. */
  readonly outputs: string[];
  /** Orders vanished through the control API: the sheet must mark them gone after reconciliation. */
  readonly vanished: Set<string>;
  /** The store the sheets hold (the one first connected). */
  readonly storeId: string;
}

export interface ReliabilityOptions extends StackOptions {
  orders: number;
  seed: number;
}

/** Starts a stack, connects it to the main store and records every execution's result from then on. */
export async function startReliabilityStack(options: ReliabilityOptions): Promise<ReliabilityStack> {
  const stack = await startStack(options);
  const outputs: string[] = [];
  const run = stack.runtime.run.bind(stack.runtime);
  stack.runtime.run = async (...args: Parameters<typeof run>): Promise<ExecutionResult> => {
    const result = await run(...args);
    outputs.push(JSON.stringify(result), ...result.logs);
    return result;
  };
  const connect = stack.connect;
  const recordingConnect = async (connectOptions?: ConnectOptions): Promise<ConnectResult> => {
    const page = await connect(connectOptions);
    outputs.push(page.html, page.callbackUrl);
    return page;
  };
  const storeId = ((await stack.truth('store')) as { store: { id: string } }).store.id;
  const page = await recordingConnect({ storeId });
  if (page.outcome !== 'connected') {
    await stack.close();
    throw new Error(`the reliability stack could not connect: ${page.outcome ?? page.status}`);
  }
  return Object.assign(stack, { connect: recordingConnect, outputs, vanished: new Set<string>(), storeId });
}
