// Resident memory of a Chromium tab's renderer processes, read from /proc (Linux): what the tab really costs,
// workers and IndexedDB buffers included, not only the JS heap.
import fs from 'node:fs';

function children(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function isRenderer(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
  } catch {
    return false;
  }
}

/** Summed RSS (MB) of every renderer process below `browserPid`. */
export function rendererRssMb(browserPid: number): number {
  let total = 0;
  const stack = [browserPid];
  while (stack.length) {
    const pid = stack.pop()!;
    for (const child of children(pid)) {
      if (isRenderer(child)) total += rssMb(child);
      stack.push(child);
    }
  }
  return total;
}

/** Samples renderer RSS every `everyMs` until stopped; returns the peak. */
export function sampleRenderer(browserPid: number, everyMs = 250): { stop(): number; peak(): number } {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rendererRssMb(browserPid))), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
    peak: () => peak,
  };
}
