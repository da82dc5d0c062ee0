import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { HostReply, WorkerToHost } from '../bridge/protocol.js';
import type { WorkerUsage } from './usage.js';

/**
 * The worker's synchronous line to the host: post the request, block on the shared flag until
 * the host has answered, then take the reply off the port. The host's event loop stays free.
 */
/** How long the reply may lag behind the host's notify before the bridge gives up. */
const REPLY_GRACE_MS = 5_000;

export class HostChannel {
  private readonly flag: Int32Array;
  private readonly pause = new Int32Array(new SharedArrayBuffer(4));
  private ended = false;

  constructor(
    private readonly port: MessagePort,
    signal: SharedArrayBuffer,
    private readonly usage?: WorkerUsage,
  ) {
    this.flag = new Int32Array(signal);
  }

  request(message: WorkerToHost): HostReply {
    // A promise job the script left behind, running after its answer: the host no longer serves it.
    if (this.ended) throw new Error('The execution has ended');
    this.usage?.sampleHeap();
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(message);
    Atomics.wait(this.flag, 0, 0);
    let received = receiveMessageOnPort(this.port);
    // The notify can overtake the message's arrival in this port's queue: give it a moment.
    for (let waited = 0; !received && waited < REPLY_GRACE_MS; waited++) {
      Atomics.wait(this.pause, 0, 0, 1);
      received = receiveMessageOnPort(this.port);
    }
    if (!received) throw new Error('The runtime bridge lost the host reply');
    return received.message as HostReply;
  }

  /** Sends the outcome; the host closes the port. */
  finish(message: WorkerToHost): void {
    this.port.postMessage(message.type === 'done' && this.usage ? { ...message, usage: this.usage.report() } : message);
    this.ended = true;
  }
}
