/** One file of a model folder and its SHA-256. */
export interface ModelFileHash {
  /** Path inside the model folder (`onnx/model.onnx`). */
  path: string;
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: string;
  bytes: number;
}
