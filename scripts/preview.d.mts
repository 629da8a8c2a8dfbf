export const DEFAULT_PORT: number;
export const DEFAULT_HOST: string;
export function previewArgs(argv: string[]): string[];
