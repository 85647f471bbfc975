import { type Ref, useId } from 'react';

export interface TextFieldProps {
  /** Visible label; also the field's accessible name (keep it short and unique on the page). */
  label: string;
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Shown under the field, tied to it with aria-describedby, and marks it aria-invalid. */
  error?: string;
  /** Help shown under the label, e.g. 'Optional'. */
  hint?: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'password' | 'search';
  autoComplete?: string;
  required?: boolean;
  disabled?: boolean;
  /** Shown and submitted but not editable (e.g. the invited address on /registerEmployee). */
  readOnly?: boolean;
  inputMode?: 'text' | 'numeric' | 'email';
  maxLength?: number;
  /** A textarea instead of an input. */
  multiline?: boolean;
  rows?: number;
  inputRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
}

export function TextField({
  label,
  name,
  value,
  onValueChange,
  error,
  hint,
  type = 'text',
  autoComplete,
  required = false,
  disabled = false,
  readOnly = false,
  inputMode,
  maxLength,
  multiline = false,
  rows = 5,
  inputRef,
}: TextFieldProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  const shared = {
    id: inputId,
    name,
    value,
    disabled,
    readOnly: readOnly || undefined,
    maxLength,
    autoComplete,
    className: 'pub-field__control',
    'aria-invalid': error ? true : undefined,
    'aria-required': required || undefined,
    'aria-describedby': describedBy,
  };

  return (
    <div className={`pub-field${error ? ' pub-field--invalid' : ''}`}>
      <label className="pub-field__label" htmlFor={inputId}>
        {label}
      </label>
      {hint ? (
        <p className="pub-field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {multiline ? (
        <textarea
          {...shared}
          ref={inputRef}
          rows={rows}
          onChange={(event) => onValueChange(event.target.value)}
        />
      ) : (
        <input
          {...shared}
          ref={inputRef}
          type={type}
          inputMode={inputMode}
          onChange={(event) => onValueChange(event.target.value)}
        />
      )}
      {error ? (
        <p className="pub-field__error" id={errorId}>
          <svg className="pub-field__error-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <circle cx="8" cy="8" r="8" fill="currentColor" />
            <path d="M8 4v5" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
            <circle cx="8" cy="12" r="1.1" fill="#fff" />
          </svg>
          {error}
        </p>
      ) : null}
    </div>
  );
}
