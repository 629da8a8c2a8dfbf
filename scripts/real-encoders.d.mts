export type RealEncoderSource =
  | { kind: 'package'; pythonPackage: string; modelSubdir: string }
  | {
      kind: 'split-zip';
      packages: ReadonlyArray<{ name: string; version: string; size: number; sha256: string }>;
      zip: { size: number; sha256: string; folder: string };
      weights: { file: string; size: number; sha256: string };
    };
export interface RealEncoder {
  presetId: string;
  name: string;
  slug: string;
  source: RealEncoderSource;
}
export declare const MODEL_SOURCES_DIR: string;
export declare const REAL_ENCODERS: readonly RealEncoder[];
export declare function encoderFolder(root: string, encoder: RealEncoder): string;
export declare function encoderPresent(root: string, encoder: RealEncoder): boolean;
export declare function sentenceTransformersPresent(root: string, encoder: RealEncoder): boolean;
export declare function sentenceTransformersFolder(root: string, encoder: RealEncoder): string;
export declare function ensureSentenceTransformersFolder(options: { root: string; log: (msg: string) => void; encoder: RealEncoder }): string;
