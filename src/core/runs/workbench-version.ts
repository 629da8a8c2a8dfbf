import pkg from '../../../package.json' with { type: 'json' };

/** The workbench's version (package.json), recorded with every saved run. */
export const WORKBENCH_VERSION: string = pkg.version;
