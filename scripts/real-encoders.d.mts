export interface RealEncoder {
  presetId: string;
  pythonPackage: string;
  modelSubdir: string;
}
export declare const REAL_ENCODERS: readonly RealEncoder[];
export declare function encoderFolder(root: string, encoder: RealEncoder): string;
export declare function encoderPresent(root: string, encoder: RealEncoder): boolean;
export declare function sentenceTransformersFolder(root: string, encoder: RealEncoder): string;
