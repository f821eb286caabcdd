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

/** The command line's options over a copy of `defaults`. `handlers` maps each option to
 *  (options, value) => void, where value() takes the option's argument; an unknown option or a
 *  missing argument throws. */
export function parseOptions(argv, defaults, handlers) {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    const handle = Object.hasOwn(handlers, name) ? handlers[name] : null;
    if (!handle) throw new Error(`unknown option ${name}`);
    handle(options, () => {
      if (i + 1 >= argv.length) throw new Error(`${name} needs a value`);
      return argv[++i];
    });
  }
  return options;
}
