// Helpers shared by the JavaScript parts of `npm run bench`.
import { readFileSync } from 'node:fs';

/** Linux's CPU pressure (PSI): the share of the last minute in which a runnable task here waited for
 *  a CPU, i.e. how much other tenants inflated the timings; null where the kernel does not say. */
export function cpuPressurePercent() {
  try {
    const m = /avg60=([0-9.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
