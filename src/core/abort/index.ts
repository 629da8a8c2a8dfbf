// The door of abort: how the core makes, throws and recognises a cancellation, and yields so an abort is heard.
export { abortError, isAbortError, taskYielder, throwIfAborted } from './abort.ts';
