import { useEffect, useState, type InputHTMLAttributes } from 'react';

interface NumberFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'min' | 'max'> {
  value: number;
  onChange(value: number): void;
  min?: number;
  max?: number;
  /** Only whole numbers are accepted. */
  integer?: boolean;
}

/**
 * A number input that never rewrites what is being typed: the value changes only when the text is a valid number
 * within bounds; otherwise the field is marked invalid with a message saying what it accepts.
 */
export function NumberField({ value, onChange, min, max, integer = false, ...rest }: NumberFieldProps) {
  const [text, setText] = useState(String(value));
  // Follow changes from outside (a preset button), unless the text already means that value.
  useEffect(() => {
    setText((current) => (Number(current) === value && current.trim() !== '' ? current : String(value)));
  }, [value]);
  const problem = check(text, min, max, integer);
  return (
    <input
      {...rest}
      type="number"
      min={min}
      max={max}
      step={rest.step ?? (integer ? 1 : 'any')}
      value={text}
      aria-invalid={problem ? true : undefined}
      title={problem ?? rest.title}
      className={[rest.className, problem ? 'invalid' : ''].filter(Boolean).join(' ') || undefined}
      onChange={(e) => {
        setText(e.target.value);
        if (!check(e.target.value, min, max, integer)) onChange(Number(e.target.value));
      }}
    />
  );
}

/** Why `text` is not acceptable, or null. */
export function check(text: string, min: number | undefined, max: number | undefined, integer: boolean): string | null {
  const n = Number(text);
  const range = `${min ?? '−∞'} to ${max ?? '∞'}`;
  if (text.trim() === '' || !Number.isFinite(n)) return `Enter a ${integer ? 'whole number' : 'number'} from ${range}`;
  if (integer && !Number.isInteger(n)) return `Enter a whole number from ${range}`;
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) return `Enter a number from ${range}`;
  return null;
}
