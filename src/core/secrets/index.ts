// The door of secrets: the one redaction of keys from text and values.
export { isSecretFieldName, redactText, redactValue, StreamRedactor } from './redact.ts';
