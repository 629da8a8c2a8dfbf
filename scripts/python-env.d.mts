export declare const VENV_DIR: string;
export declare const REQUIREMENTS: string;
export declare function venvPython(root: string): string | null;
export declare function ensurePythonEnv(options: { root: string; log: (message: string) => void; requirements?: string }): string;
export declare function runPeer(root: string, script: string, args: string[], options?: { quiet?: boolean }): string;
