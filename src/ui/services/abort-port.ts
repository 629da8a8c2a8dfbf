// How a page cancels a job it started in a worker: its AbortSignal crosses to the worker as a MessagePort
// (the workers' abort bridge; pages reach the workers only through src/ui/services).
export { withAbortPort } from '../../workers/abort-bridge.ts';
