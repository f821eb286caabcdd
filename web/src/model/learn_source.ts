// Where the guided lesson's runs come from: the one place the Learn view reaches the engine through,
// so the view only draws the steps' runs it is given. Runs are kept: a step is redrawn on every
// prediction and its runs do not change.
import type { Engine, RunRequest, SimulateValue } from '../engine/engine';

export interface LearnSource {
  /** The run of a step's request (or of one it compares with), kept once computed. */
  simulate(request: RunRequest): SimulateValue;
  /** A schedule's display name, from the engine's catalogue. */
  title(name: string): string;
}

export function engineLearnSource(engine: Engine): LearnSource {
  const runs = new Map<string, SimulateValue>();
  return {
    simulate(request) {
      const key = JSON.stringify(request);
      let run = runs.get(key);
      if (!run) {
        run = engine.simulate(request);
        runs.set(key, run);
      }
      return run;
    },
    title: (name) => engine.schedule(name)?.title ?? name,
  };
}
