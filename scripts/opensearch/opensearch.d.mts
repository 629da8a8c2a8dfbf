export declare const OPENSEARCH_VERSION: string;
export declare function startOpenSearch(options?: { nodes?: number; port?: number; heap?: string; timeoutSeconds?: number }): Promise<{ url: string; nodes: number; reused: boolean; seconds: number }>;
export declare function stopOpenSearch(options?: { port?: number; quiet?: boolean }): Promise<void>;
