// The tools module (wasm/bindings_later.cpp and bindings_tools.cpp: the exports, the chunk model, the
// profiler trace readers). engine.ts imports this file dynamically, the first time a download, the
// Chunk tab or a loaded profile needs it, so neither its JavaScript nor its .wasm is part of the
// page's first download, nor of the course module the quiz and the planner load (issue 14).
import createPipesimTools from './generated/pipesim_tools.mjs';
import type { PipesimToolsModule } from './generated/pipesim_tools.mjs';
import { toolsWasmOptions } from './tools_source';

export type { PipesimToolsModule };

/** A new instance of the tools module. `onExportProgress`: the module writes the exports and tells it
 *  how far it has got. */
export function loadToolsModule(hooks: { onExportProgress?: (written: number, expected: number) => void } = {}): Promise<PipesimToolsModule> {
  return createPipesimTools({ ...toolsWasmOptions(), ...hooks } as Parameters<typeof createPipesimTools>[0]);
}
