// What the examples read from the environment: where the exchange's order-book API listens.
export const exampleConfig = {
  /** The trading front end (services/clob), as the `pmx` command line reads it. */
  clobUrl: process.env.PMX_CLOB_URL?.trim() || 'http://127.0.0.1:8080',
};
