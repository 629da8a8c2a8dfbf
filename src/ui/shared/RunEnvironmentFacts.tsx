import { describeRunHost, modelIdOfKey, type RunEnvironment } from '../../core/index.ts';

/** The software, host and model file hashes a run was made with (Runs details, deep-search runs). */
export function RunEnvironmentFacts({ environment }: { environment: RunEnvironment | undefined }) {
  if (!environment) {
    return (
      <div>
        <dt>Environment</dt>
        <dd>not recorded (saved before the workbench recorded it)</dd>
      </div>
    );
  }
  const models = Object.entries(environment.modelFiles ?? {});
  return (
    <>
      <div>
        <dt>Software</dt>
        <dd data-testid="run-software">
          workbench {environment.workbench}; transformers.js {environment.transformersJs}; {environment.onnxRuntime.package} {environment.onnxRuntime.version}
        </dd>
      </div>
      <div>
        <dt>{environment.host.kind === 'node' ? 'Node' : 'Browser'}</dt>
        <dd data-testid="run-host">{describeRunHost(environment.host)}</dd>
      </div>
      {models.map(([key, files]) => (
        <div key={key}>
          <dt>Model files of {modelIdOfKey(key)}</dt>
          <dd>
            <ul className="plain" data-testid="run-model-files">
              {files.map((f) => (
                <li key={f.path}>
                  <code>{f.path}</code> sha256 <code className="hash">{f.sha256}</code> ({f.bytes.toLocaleString()} bytes)
                </li>
              ))}
            </ul>
          </dd>
        </div>
      ))}
    </>
  );
}
