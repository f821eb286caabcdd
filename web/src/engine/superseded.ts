// The answer to a request that a newer one of its lane replaced before it finished (background.ts).
// A registered symbol: every copy of this module (the page's, an element bundle's, a test's) agrees.
export const SUPERSEDED: unique symbol = Symbol.for('pipesim:superseded') as never;
export type Superseded = typeof SUPERSEDED;
