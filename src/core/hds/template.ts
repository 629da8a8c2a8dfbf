/** A prompt template that cannot be filled. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/**
 * Fills `{name}` placeholders like Python's `str.format` with keyword arguments: `{{` and `}}` give literal braces,
 * substituted values are not re-parsed, and an unknown placeholder or a lone brace is an error.
 */
export function formatTemplate(template: string, values: Record<string, string | number>): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c === '{') {
      if (template[i + 1] === '{') {
        out += '{';
        i += 2;
        continue;
      }
      const close = template.indexOf('}', i + 1);
      if (close < 0) throw new TemplateError("Single '{' encountered in format string");
      const name = template.slice(i + 1, close);
      if (!Object.hasOwn(values, name)) {
        throw new TemplateError(`Unknown placeholder {${name}} in the prompt template`);
      }
      out += String(values[name]);
      i = close + 1;
    } else if (c === '}') {
      if (template[i + 1] !== '}') throw new TemplateError("Single '}' encountered in format string");
      out += '}';
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
