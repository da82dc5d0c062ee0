import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

/**
 * What one execution's worker thread used, for the bench (not a Google behaviour): CPU time of
 * this thread and the largest V8 heap its isolate held. A worker thread is its own isolate, so
 * the heap figures are the execution's alone; the CPU figure is this thread's alone (Linux
 * /proc/thread-self/stat: utime + stime in clock ticks, 10 ms each). Null where /proc is absent.
 */
const TICK_MS = 10;

function threadCpuMs(): number | null {
  try {
    // Fields after "(comm) ": state is [0], utime [11], stime [12] (proc(5)).
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

export class WorkerUsage {
  private readonly cpuAtStart = threadCpuMs();
  private peakHeap = 0;

  /** Called at every service call and at the end: the peak is the largest of these samples. */
  sampleHeap(): void {
    const used = getHeapStatistics().used_heap_size;
    if (used > this.peakHeap) this.peakHeap = used;
  }

  report(): { cpuMs: number | null; peakHeapBytes: number } {
    this.sampleHeap();
    const now = threadCpuMs();
    return {
      cpuMs: now === null || this.cpuAtStart === null ? null : now - this.cpuAtStart,
      peakHeapBytes: this.peakHeap,
    };
  }
}
