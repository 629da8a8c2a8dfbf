export declare const VENV_DIR: string;
export declare const REQUIREMENTS: string;
export declare function venvPython(root: string): string | null;
export declare function ensurePythonEnv(options: { root: string; log: (message: string) => void; requirements?: string }): string;
export declare function runPeer(root: string, script: string, args: string[], options?: { quiet?: boolean }): string;
/** A Python script of bench/peers/ that answers lines with lines. */
export interface PeerProcess {
  /** The next line it prints; rejects with its standard error if it exits first. */
  next(): Promise<string>;
  send(line: string): void;
  stop(): void;
}
export declare function startPeer(root: string, script: string, args: string[], env?: Record<string, string>): PeerProcess;
